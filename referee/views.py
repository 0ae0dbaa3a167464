"""The referee's pages, phone first: pick a table (or find a player), tap what happened, save.

Referees record penalties, substitutions and incidents; they never enter or confirm results.
The director sees every record on the log page and can void one with a reason (views_log).
"""

from collections import defaultdict
from operator import attrgetter

from django.contrib import messages
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from core.collation import collated
from core.errors import ActionRefused
from core.roles import RefereeRequired
from core.tables import isolated_names
from core.undo import undo_open
from core.views import act, ask_first, back, chosen, first_error, refuse
from mahjong.penalties import MINOR, kinds_for, scale_position
from mahjong.table import three_player
from referee.forms import (
    DisqualifyForm,
    FindForm,
    IncidentForm,
    PenaltyForm,
    SubstituteForm,
    ThreeHandedForm,
)
from referee.models import Incident
from referee.services import (
    disqualify,
    minor_counts,
    play_three_handed,
    record_incident,
    record_penalty,
    substitute,
    undo_penalty,
)
from referee.tables import (
    HandChangeTable,
    RefereeTablesTable,
    worth_html,
)
from scoring.models import Penalty
from scoring.selectors import hand_changes, penalties_with_worth, worth_if_recorded, worth_text
from seating.keys import table_code, table_path
from seating.models import Seat, Table
from seating.selectors import winds_pending
from tournament.mixins import SessionMixin, TournamentMixin
from tournament.models import Player


class RefereeHome(RefereeRequired, TournamentMixin, View):
    """Choose the session, then a table; or search a player by name."""

    def get(self, request, slug):
        t = self.tournament
        sessions = list(t.sessions.order_by("number"))
        seated = [s for s in sessions if s.seats.exists()]
        find = FindForm(request.GET)
        number = find.value("session") or (seated[-1].number if seated else None)
        session = next((s for s in sessions if s.number == number), None)
        rows, found = [], []
        if session is not None:
            counts = defaultdict(int)
            for tid in Penalty.objects.filter(session=session, voided_at=None).values_list(
                "table_id", flat=True
            ):
                counts[tid] += 1
            seats = defaultdict(list)
            for seat in Seat.objects.filter(session=session).select_related("player", "table"):
                seats[seat.table].append(seat)
            needle = find.needle()
            for table, table_seats in sorted(seats.items(), key=lambda kv: kv[0].number):
                table_seats.sort(key=lambda s: s.wind_order)
                url = reverse(
                    "referee:table",
                    kwargs={"slug": t.slug, "number": session.number, "table": table.number},
                )
                rows.append(
                    {
                        "number": table.number,
                        "players": isolated_names(s.player.name for s in table_seats),
                        "records": counts.get(table.pk) or "",
                        "url": url,
                    }
                )
                if needle:
                    found += [
                        {
                            "name": seat.player.name,
                            "table": table.number,
                            "wind": seat.get_wind_display(),
                            "url": f"{url}#p{seat.player_id}",
                        }
                        for seat in table_seats
                        if needle.matches(seat.player.name)
                    ]
            found = found[:20]
        return render(
            request,
            "referee/referee.html",
            {
                "tournament": t,
                "sessions": sessions,
                "session": session,
                "table": RefereeTablesTable(rows),
                "found": found,
                "query": find.query(),
            },
        )


class RefereeTable(RefereeRequired, SessionMixin, View):
    """One table: each seat with its penalties this session and one-tap actions."""

    def get(self, request, slug, number, table):
        session = self.session
        table_obj = get_object_or_404(Table, session=session, number=table)
        rules = self.tournament.rule_set()
        seats = sorted(
            table_obj.seats.select_related("player", "replaces"), key=lambda s: s.wind_order
        )
        minors = minor_counts(session)
        by_player = defaultdict(list)
        for w in penalties_with_worth(self.tournament, session=session):
            p = w.penalty
            p.undo = undo_open(p.recorded_by_id, p.recorded_at, request.user) and not p.voided_at
            by_player[p.player_id].append((p, worth_html(w)))
        at_seat, top = _seat_messages(request)
        cards = []
        for seat in seats:
            cards.append(
                {
                    "seat": seat,
                    "back": f"{request.path}#p{seat.player_id}",
                    "messages": at_seat.get(seat.player_id, []),
                    "penalties": by_player.get(seat.player_id, []),
                    "scale": scale_position(rules, minors.get(seat.player_id, 0))
                    if rules.progressive_scale
                    else None,
                }
            )
        seated = Seat.objects.filter(session=session).values_list("player_id", flat=True)
        pool = collated(
            Player.objects.filter(tournament=self.tournament, substitute=True).exclude(
                pk__in=seated
            ),
            self.tournament.language,
            attrgetter("name"),
        )
        return render(
            request,
            "referee/referee_table.html",
            {
                "tournament": self.tournament,
                "session": session,
                "table": table_obj,
                "winds_pending": winds_pending(table_obj),
                "cards": cards,
                "rules": rules,
                "kinds": kinds_for(rules),
                "pool": pool,
                "can_three": three_player(rules) and len(seats) == 4,
                "incidents": Incident.objects.filter(table=table_obj).select_related(
                    "player", "substitute", "recorded_by"
                ),
                "messages": top,
                "hand_changes": HandChangeTable(hand_changes(table_obj)),
                "has_hands": table_obj.hands.exists(),
                "sheet_path": table_path(table_obj),
                "sheet_code": table_code(table_obj),
            },
        )


SEAT_TAG = "seat-"


def _at_seat(player) -> str:
    """The tag of a message that belongs on `player`'s card of the table page."""
    return f"{SEAT_TAG}{player.pk}"


def _seat_messages(request):
    """The messages for a seat's card (player id → messages), shown on the card the referee
    comes back to (the page opens scrolled to it), and the others, shown at the top."""
    at_seat, top = defaultdict(list), []
    for m in messages.get_messages(request):
        tag = next((t for t in m.extra_tags.split() if t.startswith(SEAT_TAG)), "")
        pk = tag.removeprefix(SEAT_TAG)
        if pk.isdigit():
            at_seat[int(pk)].append(m)
        else:
            top.append(m)
    return at_seat, top


class TableAction(RefereeRequired, SessionMixin, View):
    """A one-tap action of the table page: its form (`form_class`, with the seat's player in a
    hidden field unless `for_player` is off), then `done()`; an invalid form says which field
    and goes back. A missing or foreign hidden player is not found (core.views.chosen)."""

    form_class = None
    for_player = True

    def form(self, data):
        return self.form_class(data, tournament=self.tournament)

    def post(self, request, slug, number):
        form = self.form(request.POST)
        player = chosen(form, "player") if self.for_player else None
        fallback = reverse("referee:home", kwargs={"slug": slug})
        if not form.is_valid():
            if player is None:
                return refuse(request, form, fallback)
            # Said on the player's card, where the page opens again.
            messages.error(request, first_error(form), extra_tags=_at_seat(player))
            return back(request, fallback)
        return self.done(request, form.cleaned_data, player, fallback)

    def done(self, request, data, player, fallback):
        raise NotImplementedError


class PenaltyAdd(TableAction):
    """A penalty tap: first a page that asks to confirm it (what, for whom), then the save,
    said on the player's card with an Undo for the one who recorded it (undo_penalty)."""

    form_class = PenaltyForm
    fields = ("player", "kind", "minutes", "amount", "stage", "note", "next")

    def done(self, request, data, player, fallback):
        kind = data["kind"]
        if not data["confirm"]:
            what = dict(Penalty.Kind.choices)[kind]
            if data["minutes"]:
                what += " · " + _("%(minutes)d min") % {"minutes": data["minutes"]}
            # What it will be worth, as the log will say it; a value the rules refuse is said
            # by the save.
            worth = worth_if_recorded(
                self.session,
                player,
                kind,
                minutes=data["minutes"],
                amount=data["amount"],
                stage=data["stage"],
            )
            if worth:
                what += " · " + worth
            elif data["amount"] is not None:
                what += " " + number_format(data["amount"], force_grouping=True)
            question = _("Confirm: %(penalty)s for %(name)s?") % {
                "penalty": what,
                "name": player.name,
            }
            return ask_first(
                request,
                question,
                self.fields,
                fallback,
                tournament=self.tournament,
                bodyclass="referee",
            )
        tag = _at_seat(player)
        try:
            penalty = record_penalty(
                self.session,
                player,
                kind,
                request.user,
                minutes=data["minutes"],
                amount=data["amount"],
                stage=data["stage"],
                note=data["note"],
            )
        except ActionRefused as e:
            messages.error(request, e.message, extra_tags=tag)
            return back(request, fallback)
        rules = self.tournament.rule_set()
        saved = next(
            w
            for w in penalties_with_worth(self.tournament, session=self.session)
            if w.penalty.pk == penalty.pk
        )
        resolved = saved.worth
        text = _("Saved: %(kind)s for %(name)s, %(worth)s.") % {
            "kind": penalty.get_kind_display(),
            "name": player.name,
            "worth": worth_text(resolved, saved.unit),
        }
        if resolved is not None and getattr(resolved, "fixed", False):
            if rules.substitute_mode == "sbr":
                text += " " + ngettext(
                    "More than %(minutes)d minute late: put in a substitute, or the table plays "
                    "three-handed.",
                    "More than %(minutes)d minutes late: put in a substitute, or the table plays "
                    "three-handed.",
                    rules.late_max_minutes,
                ) % {"minutes": rules.late_max_minutes}
            else:
                text += " " + ngettext(
                    "More than %(minutes)d minute late: a substitute must play.",
                    "More than %(minutes)d minutes late: a substitute must play.",
                    rules.late_max_minutes,
                ) % {"minutes": rules.late_max_minutes}
            messages.warning(request, text, extra_tags=tag)
        else:
            messages.success(request, text, extra_tags=tag)
        if kind == MINOR:
            position = scale_position(rules, minor_counts(self.session).get(player.pk, 0))
            if position["exhausted"]:
                messages.warning(
                    request,
                    _(
                        "The progressive scale is exhausted: the head referee decides a TP "
                        "penalty or disqualification."
                    ),
                    extra_tags=tag,
                )
        return back(request, fallback)


class PenaltyUndo(RefereeRequired, TournamentMixin, View):
    """The Undo of the one who recorded a penalty, shortly after: it is voided, kept in the log."""

    def post(self, request, slug, pk):
        penalty = get_object_or_404(
            Penalty.objects.select_related("session", "table", "player"),
            session__tournament=self.tournament,
            pk=pk,
        )
        tag = _at_seat(penalty.player)
        try:
            undo_penalty(penalty, request.user)
        except ActionRefused as e:
            messages.error(request, e.message, extra_tags=tag)
        else:
            messages.success(
                request,
                _("Undone: %(kind)s for %(name)s is void; it stays in the log.")
                % {"kind": penalty.get_kind_display(), "name": penalty.player.name},
                extra_tags=tag,
            )
        fallback = reverse("referee:home", kwargs={"slug": slug})
        if penalty.table is not None:
            fallback = reverse(
                "referee:table",
                kwargs={
                    "slug": slug,
                    "number": penalty.session.number,
                    "table": penalty.table.number,
                },
            )
        return back(request, fallback)


class SubstituteView(TableAction):
    form_class = SubstituteForm

    def done(self, request, data, player, fallback):
        sub = data["substitute"]
        return act(
            request,
            fallback,
            lambda: substitute(
                self.session, player, sub, data["joined"], request.user, data["note"]
            ),
            lambda _i: _("%(sub)s now plays for %(name)s.") % {"sub": sub, "name": player},
        )


class ThreeHanded(TableAction):
    form_class = ThreeHandedForm

    def done(self, request, data, player, fallback):
        return act(
            request,
            fallback,
            lambda: play_three_handed(self.session, player, request.user, data["note"]),
            lambda i: _("%(table)s plays three-handed; North stays empty.") % {"table": i.table},
        )


class IncidentAdd(TableAction):
    for_player = False  # a note may name no player; the form checks the one it names

    def form(self, data):
        return IncidentForm(data, session=self.session)

    def done(self, request, data, player, fallback):
        return act(
            request,
            fallback,
            lambda: record_incident(
                self.session, request.user, data["text"], data["player"], data["table"]
            ),
            lambda _i: _("Incident recorded."),
        )


class Disqualify(RefereeRequired, TournamentMixin, View):
    def post(self, request, slug, pk):
        player = get_object_or_404(Player, tournament=self.tournament, pk=pk)
        form = DisqualifyForm(request.POST, tournament=self.tournament)
        fallback = reverse("referee:log", kwargs={"slug": slug})
        if not form.is_valid():
            return refuse(request, form, fallback)
        data = form.cleaned_data
        return act(
            request,
            fallback,
            lambda: disqualify(player, request.user, data["text"], data["session"]),
            lambda _i: _("%(name)s is disqualified.") % {"name": player},
            messages.warning,
        )
