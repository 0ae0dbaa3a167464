"""A restore: a tournament file put in the place of the tournament of its slug (or created), after
a "before-restore" backup of the current state, and what it would change there (`preview`)."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.tournament_file import (
    changes,
    create_tournament,
    export_tournament,
    import_tournament,
    parse,
    prepare_import,
)
from tournament.changes import touch
from tournament.grants import give_again, grants_of
from tournament.models import Restore, Tournament

from .files import BEFORE_RESTORE
from .writer import write_backup


def _existing(incoming: dict) -> Tournament | None:
    """The tournament the file would replace: the one with the file's slug."""
    slug = (incoming.get("tournament") or {}).get("slug")
    return Tournament.objects.filter(slug=slug).first() if slug else None


def _prepare(content, user=None):
    """(the parsed file, the tournament it replaces or None, the checked import or None, what
    it changes). The changes are those of the tables the restore creates (the reader's plan),
    not of the file as written: a table with hands and no scores becomes a result unless it is
    in play (status playing), and the page says so."""
    incoming = parse(content)
    existing = _existing(incoming)
    if existing is None:
        return incoming, None, None, []
    # The file is read and checked (outside any transaction) before anything is shown or
    # swapped: a file the restore would refuse is refused here, naming its first problem.
    ready = prepare_import(incoming, user=user, replacing=existing)
    found = changes(export_tournament(existing), incoming, ready.plan.sessions)
    return incoming, existing, ready, found


def replace_tournament(existing: Tournament, ready, user) -> Tournament:
    """Inside the caller's transaction: the tournament `existing` deleted and the prepared file
    `ready` (prepare_import(..., replacing=existing)) created in its place, its grants kept.
    Touching it is the caller's (after its own writes). Shared by the restore and the
    federation server's mirror (a file a hall sent)."""
    kept = grants_of(existing)  # who works on it stays so (issue 34)
    Tournament.objects.select_for_update().get(pk=existing.pk).delete()
    tournament = create_tournament(ready)
    give_again(tournament, kept, user)
    return tournament


def preview(content) -> tuple[dict, Tournament | None, list]:
    """The parsed file, the tournament it would replace (None: it would be created) and what
    restoring it would change there. Raises TournamentFileError for a file that is not one, or
    that the restore would refuse."""
    incoming, existing, _ready, found = _prepare(content)
    return incoming, existing, found


def restore(content, user, backup_name: str = "") -> tuple[Tournament, Restore | None]:
    """Replace the tournament of the file's slug with the file, or create it if there is none.

    The current state is first written as a "before-restore" backup, so a restore can itself be
    undone; the swap is one transaction (a bad file changes nothing), and the restore is logged.
    """
    incoming, existing, ready, changes = _prepare(content, user)
    if existing is None:
        return import_tournament(incoming, user=user), None
    # The file is read and checked before the swap's transaction, which then only writes.
    before = write_backup(existing, tag=BEFORE_RESTORE)
    try:
        with transaction.atomic():
            tournament = replace_tournament(existing, ready, user)
            record = Restore.objects.create(
                slug=tournament.slug,
                backup=backup_name or _("an uploaded file"),
                before=before.name,
                changes=len(changes),
                restored_by=user,
                restored_at=timezone.now(),
            )
            touch(tournament.pk)
    except BaseException:
        # Nothing was restored, so there is nothing to undo: no before-restore copy is kept
        # (they are kept until deleted by hand, and each failed try would leave one).
        before.path.unlink(missing_ok=True)
        raise
    return tournament, record
