"""A session's play, from its start to its end: one home for both (issue 35).

Play starts with the session's clock (`start_clock`, the desk's Start on the clock page); a
session is played once its clock started, a result or a penalty was recorded, or the desk ended
it (scoring.selectors reads that). Play ends when the desk says so ("Play has ended"):
`end_session` records the moment, from which the appeal window runs (referee.appeals), and
stops a running clock. The one who declared it may take it back a moment after
(`reopen_session`), unless a room above refuses through `tournament.changes.reopen_asked` (the
referee's, once an appeal has been filed since). Every change stays in the session's history;
the clock's own events are tournament.timekeeping's.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ActionRefused
from core.undo import undo_open
from tournament.changes import reopen_asked, touch
from tournament.models import ClockEvent, Session
from tournament.timekeeping import append_event, end_clock, reopen_clock


@transaction.atomic
def start_clock(session: Session, user) -> Session:
    """Start play: the session's clock starts (a seated session that has not ended)."""
    if session.ended_at is not None:
        raise ActionRefused(_("This session has ended."))
    if not session.tables.exists():
        raise ActionRefused(_("Seat the session before starting its clock."))
    return append_event(session, ClockEvent.Kind.START, user)


@transaction.atomic
def end_session(session: Session, user) -> Session:
    """Mark the session's end now; the appeal window runs from here."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.ended_at is not None:
        raise ActionRefused(_("This session has already ended."))
    session.ended_at = timezone.now()
    session._history_user = user  # django-simple-history: who declared play over
    session.save(update_fields=["ended_at"])
    end_clock(session, user)  # a running clock stops with play
    touch(session.tournament_id)
    return session


def ended_by(session: Session):
    """The id of the user who declared the session's play over (its history says), or None."""
    if session.ended_at is None:
        return None
    change = session.history.filter(ended_at=session.ended_at).order_by("history_date").first()
    return change.history_user_id if change is not None else None


def can_reopen(session: Session, user) -> bool:
    """Whether `user` may still take back the end of play: they declared it, a moment ago."""
    return undo_open(ended_by(session), session.ended_at, user)


@transaction.atomic
def reopen_session(session: Session, user) -> Session:
    """Take back "play has ended" (a mistaken tap): only the one who declared it, within the
    undo time, and only when no room refuses (an appeal filed since: referee.receivers). The
    clock goes on as if it had not stopped; the history keeps both changes."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.ended_at is None:
        raise ActionRefused(_("This session has not ended."))
    if not can_reopen(session, user):
        raise ActionRefused(
            _("Only the one who declared play over can undo it, and only shortly after.")
        )
    reopen_asked.send(sender=Session, session=session)
    session.ended_at = None
    session._history_user = user
    session.save(update_fields=["ended_at"])
    reopen_clock(session, user)
    touch(session.tournament_id)
    return session
