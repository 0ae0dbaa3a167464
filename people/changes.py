"""People changed: the signal the rooms that show people hang on (a club's rating is kept by
its revision, and a merge moves memberships). people cannot import the rooms above it, so its
services send `people_changed` with the ids of the people concerned and the clubs listen
(club.apps).

A merge asks first: `merge_asked` is sent with `kept` and `other` before anything moves, and a
room that cannot take the two as one person (a club game where both sat) raises ActionRefused
from its receiver, which refuses the merge whole."""

from django.dispatch import Signal

# Sent inside the writing transaction with `person_ids`.
people_changed = Signal()

# Sent inside the merge's transaction, the two people locked, before any link moves.
merge_asked = Signal()
