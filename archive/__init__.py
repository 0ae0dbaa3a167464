"""What leaves the desk and comes back to it: the tournament file (backup, restore, moving an
event between machines), the backups written after every change, and their pages and commands.
No models: it reads the tournament, seating and scoring rooms, and nothing below reads it back;
the backups hear of a change through tournament.changes.tournament_changed."""
