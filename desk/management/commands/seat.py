"""Seat one session (draw, balanced or Swiss) or plan several (balanced), and print the figures."""

import re

from django.core.management.base import CommandError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ActionRefused
from scoring.selectors import standings_order
from seating.plans import apply_plan, run_plan, start_plan
from seating.selectors import figure_lines, figures, tournament_quality, winds_at_table
from seating.services import delete_table, draw_session, swiss_session
from tournament.commands import TournamentCommand
from tournament.models import Session


class Command(TournamentCommand):
    help = (
        "Seat a session by random draw, balanced plan or standings (Swiss), or plan a range of "
        "sessions (balanced), and print the seating's quality figures."
    )

    def add_tournament_arguments(self, parser):
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--session", type=int, metavar="N", help="the session to seat")
        where.add_argument("--sessions", metavar="A-B", help="sessions A to B (balanced only)")
        parser.add_argument("--method", choices=["draw", "balanced", "swiss"], required=True)
        parser.add_argument("--seed", type=int, help="repeat a seating: the same seed, the same")
        parser.add_argument(
            "--keep-apart",
            choices=["club", "country", "team", "none"],
            help="seat players sharing this value apart (default: the tournament's setting)",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="remove the session's tables without results first (draw and Swiss)",
        )

    def handle_tournament(
        self, tournament, session, sessions, method, seed, keep_apart, replace, **kw
    ):
        field = None if keep_apart is None else ("" if keep_apart == "none" else keep_apart)
        if sessions:
            match = re.fullmatch(r"(\d+)-(\d+)", sessions)
            if not match:
                raise CommandError(_("--sessions: write a range such as 1-8."))
            first, last = int(match[1]), int(match[2])
            if method != "balanced":
                raise CommandError(_("--sessions plans several sessions: use --method balanced."))
        else:
            first = last = session
        try:
            if method == "balanced":
                plan = start_plan(tournament, first, last, seed, field)
                plan = run_plan(plan.pk)
                if plan.status != plan.Status.DONE:
                    raise CommandError(plan.message)
                apply_plan(plan)
                used_seed = plan.seed
            else:
                used_seed = self._seat(tournament, first, method, seed, field, replace)
        except ActionRefused as e:
            raise CommandError(e.message) from e
        tournament.refresh_from_db()
        values = figures(tournament_quality(tournament, upto=last))
        self.stdout.write(
            _("Seated sessions %(a)d–%(b)d by %(method)s, seed %(seed)d.")
            % {"a": first, "b": last, "method": method, "seed": used_seed}
        )
        self.stdout.write(
            ngettext(
                "Quality over sessions 1–%(b)d (%(n)d player):",
                "Quality over sessions 1–%(b)d (%(n)d players):",
                values["players"],
            )
            % {"b": last, "n": values["players"]}
        )
        for label, value in figure_lines(values, winds_at_table(tournament)):
            self.stdout.write(f"  {label}: {value}")

    @transaction.atomic
    def _seat(self, tournament, number, method, seed, field, replace) -> int:
        """Draw or Swiss for one session, all or nothing: a refusal leaves neither a new
        session nor removed tables behind."""
        row, _created = Session.objects.get_or_create(tournament=tournament, number=number)
        if row.seats.exists():
            if not replace:
                raise CommandError(
                    _("Session %(n)d is already seated: add --replace to redo it.") % {"n": number}
                )
            for table in row.tables.filter(results__isnull=True):
                delete_table(table)
        if method == "draw":
            return draw_session(row, seed, keep_apart=field).seed
        return swiss_session(row, standings_order(tournament), seed, keep_apart=field).seed
