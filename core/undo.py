"""A tap taken back: how long the one who did something (recorded a penalty, declared play
over) may undo it themselves, declared once for the referee's pages and the session's end."""

from datetime import timedelta

from django.utils import timezone

# How long the one who recorded a penalty (or declared play over) may take it back by a tap.
UNDO_SECONDS = 120


def undo_open(recorded_by_id, at, user, now=None) -> bool:
    """Whether `user` may still undo what `recorded_by_id` did `at`: their own, and recent."""
    now = now or timezone.now()
    return (
        at is not None
        and user.is_authenticated
        and recorded_by_id == user.pk
        and now - at <= timedelta(seconds=UNDO_SECONDS)
    )
