"""People changed: the signal the rooms that show people hang on (a club's rating is kept by
its revision, and a merge moves memberships). people cannot import the rooms above it, so its
services send `people_changed` with the ids of the people concerned and the clubs listen
(club.apps)."""

from django.dispatch import Signal

# Sent inside the writing transaction with `person_ids`.
people_changed = Signal()
