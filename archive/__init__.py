"""What leaves the desk and comes back to it: the tournament file (backup, restore, moving an
event between machines). A plain package, no models: it reads the tournament, seating and
scoring apps and nothing there reads it back, except the callers that will move here."""
