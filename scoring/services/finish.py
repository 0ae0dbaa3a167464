"""The director finishes the tournament (its results final) and reopens it with a reason."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ActionRefused
from core.roles import is_director
from scoring.selectors import unfinished
from tournament.changes import touch
from tournament.models import Tournament


def _tables_text(tables) -> str:
    return ", ".join(
        _("session %(session)d table %(table)d") % {"session": t.session, "table": t.table}
        for t in tables
    )


@transaction.atomic
def finish_tournament(tournament: Tournament, user) -> Tournament:
    """The director's last step: the results are final. Refused while a table of a played
    session has no confirmed result; what else is open (drafts, appeals, sessions not ended)
    the confirmation page lists. Until reopened, every write that would change the results is
    refused (tournament.services.refuse_if_finished) and the public pages say "Final"."""
    if not is_director(user):
        raise ActionRefused(_("Only the director finishes the tournament."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.finished:
        raise ActionRefused(_("The tournament is already finished."))
    open_tables = unfinished(tournament).unconfirmed
    if open_tables:
        raise ActionRefused(
            ngettext(
                "%(n)d table of a played session has no confirmed result: %(tables)s.",
                "%(n)d tables of played sessions have no confirmed result: %(tables)s.",
                len(open_tables),
            )
            % {"n": len(open_tables), "tables": _tables_text(open_tables[:10])}
        )
    tournament.finished_at = timezone.now()
    tournament.finished_by = user
    tournament.save(update_fields=["finished_at", "finished_by"])
    touch(tournament.pk)
    return tournament


@transaction.atomic
def reopen_tournament(tournament: Tournament, user, reason: str) -> Tournament:
    """Undo the finish, with a reason kept with who and when (the history keeps every one)."""
    if not is_director(user):
        raise ActionRefused(_("Only the director reopens the tournament."))
    if not reason.strip():
        raise ActionRefused(_("Give the reason for reopening the tournament."), field="reason")
    try:
        Tournament._meta.get_field("reopen_reason").run_validators(reason.strip())
    except ValidationError as e:
        raise ActionRefused(e.messages[0], field="reason") from e
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not tournament.finished:
        raise ActionRefused(_("The tournament is not finished."))
    tournament.finished_at = None
    tournament.finished_by = None
    tournament.reopened_at = timezone.now()
    tournament.reopened_by = user
    tournament.reopen_reason = reason.strip()
    tournament.save(
        update_fields=["finished_at", "finished_by", "reopened_at", "reopened_by", "reopen_reason"]
    )
    touch(tournament.pk)
    return tournament
