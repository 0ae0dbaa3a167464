"""A tournament changed: one function every write calls, one signal the side effects hang on.

`touch()` bumps the tournament's revision (what the visitors' pages and the feed are kept by)
and sends `tournament_changed`. The rooms that keep copies listen, connected in their
`AppConfig.ready()`: the public page cache forgets the revision it holds (public.cache), the
backup writer schedules a file for when the change commits (archive.backups). No write has to
remember them, and nothing below them imports its way up to them.
"""

from django.db.models import F
from django.dispatch import Signal

from tournament.models import Tournament

# Sent inside the writing transaction with `tournament_id`; receivers only clear caches and
# write backups (never rules), and defer what must wait for the commit with on_commit.
tournament_changed = Signal()

# Sent with `session` inside tournament.sessions.reopen_session's transaction, the session
# locked, before its end is taken back: a room above that cannot let play go on (the referee's,
# once an appeal was filed since) raises ActionRefused from its receiver, which refuses it whole.
reopen_asked = Signal()

# Sent inside the writing transaction with `tournament_id` and `tables`: the ids of the tables
# whose own page (the table page's state, sheet.state) the write changed, or None when it may
# have changed every table's. touch() sends it too (None unless told which tables), so a write
# that names no table marks them all; the table page keeps its state by it (sheet.state).
tables_changed = Signal()


def touch(tournament_id, *, seating: bool = True, tables=None) -> None:
    """Mark everything the tournament shows as changed; `seating=False` from a write that
    leaves its players and seats as they were (a result, a hand, a penalty, the clock), which
    keeps them kept (Tournament.seating_revision). `tables`: the ids of the only tables whose
    own page the write changed (a hand, a table's result), which keeps the other tables' pages
    kept (sheet.state); None, every table's. When in doubt, leave the defaults."""
    bumped = {"revision": F("revision") + 1}
    if seating:
        bumped["seating_revision"] = F("seating_revision") + 1
    Tournament.objects.filter(pk=tournament_id).update(**bumped)
    tournament_changed.send(sender=Tournament, tournament_id=tournament_id)
    tables_changed.send(sender=Tournament, tournament_id=tournament_id, tables=tables)


def touch_tables(tournament_id, tables) -> None:
    """Mark what the tables `tables` (ids) show on their own page as changed, and nothing else:
    a write the visitors' pages and the standings do not show (a hand confirmed, a draft result)
    and that needs no backup of its own (the next backup carries it, as before). No revision is
    bumped."""
    tables_changed.send(sender=Tournament, tournament_id=tournament_id, tables=list(tables))
