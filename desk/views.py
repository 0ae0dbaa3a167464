"""Desk pages: the director runs the tournament, desk users check in and enter results."""

import secrets
from operator import attrgetter

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django_tables2 import RequestConfig

from core.collation import collated
from core.errors import ActionRefused
from core.forms import ButtonsForm, SearchForm
from core.roles import (
    DESK,
    HEAD_REFEREE,
    REFEREE,
    DeskRequired,
    DirectorRequired,
    StaffRequired,
    is_desk,
    is_director,
    is_referee,
)
from core.views import show_refusal
from desk.forms import (
    CheckInForm,
    ImportConfirmForm,
    PlayerForm,
    PlayerListForm,
    RulesForm,
    TournamentForm,
)
from desk.tables import (
    CheckinTable,
    DeskTournamentsTable,
    ImportPreviewTable,
    PlayersTable,
    RefereeTournamentsTable,
)
from mahjong.table import three_player
from scoring.selectors import done, has_confirmed_results, session_now, table_states
from scoring.services import change_rules
from seating.algorithms.draw import table_sizes
from tournament.grants import tournaments_of
from tournament.mixins import TournamentMixin
from tournament.models import Player, Tournament
from tournament.people import matches_offer
from tournament.player_import import checked_rows, parse_player_list
from tournament.selectors import mers, player_counts
from tournament.services import (
    add_session,
    import_players,
    save_player,
    save_tournament,
    set_checked_in,
)


class Home(StaffRequired, View):
    """Every desk role's way in; a referee's tournaments link to the referee's pages."""

    def get(self, request):
        user = request.user
        # Each one's own tournaments (issue 34): the director's are all; a desk user's open on
        # the desk's pages, a referee's (not also desk there) on the referee's. A club officer
        # alone has no tournament pages: the club ratings' link only.
        desk = tournaments_of(user, (DESK,)) if is_desk(user) else Tournament.objects.none()
        refereed = (
            tournaments_of(user, (REFEREE, HEAD_REFEREE)).exclude(pk__in=desk.values("pk"))
            if is_referee(user) and not is_director(user)
            else Tournament.objects.none()
        )
        context = {
            "table": DeskTournamentsTable(desk) if is_desk(user) else None,
            "referee_table": RefereeTournamentsTable(refereed) if is_referee(user) else None,
        }
        if context["table"] is not None and context["referee_table"] is not None:
            # Both kinds: the referee's list only when it has something of its own.
            context["referee_table"] = context["referee_table"] if refereed.exists() else None
        return render(request, "desk/home.html", context)


class TournamentCreate(DirectorRequired, View):
    def get(self, request):
        return render(
            request, "desk/form.html", {"form": TournamentForm(), "title": _("New tournament")}
        )

    def post(self, request):
        form = TournamentForm(request.POST)
        if form.is_valid():
            tournament = save_tournament(form.save(commit=False))
            messages.success(request, _("Tournament created."))
            return redirect("desk:tournament", slug=tournament.slug)
        return render(request, "desk/form.html", {"form": form, "title": _("New tournament")})


class TournamentEdit(DirectorRequired, TournamentMixin, View):
    def get(self, request, slug):
        form = TournamentForm(instance=self.tournament)
        return render(
            request,
            "desk/form.html",
            {"form": form, "title": _("Edit tournament"), "tournament": self.tournament},
        )

    def post(self, request, slug):
        form = TournamentForm(request.POST, instance=self.tournament)
        if form.is_valid():
            tournament = save_tournament(form.save(commit=False))
            messages.success(request, _("Tournament saved."))
            return redirect("desk:tournament", slug=tournament.slug)
        # A refused form has already copied its valid fields (an emptied slug
        # among them) onto the instance; the page around it shows the stored one.
        stored = type(self.tournament).objects.get(pk=self.tournament.pk)
        return render(
            request,
            "desk/form.html",
            {"form": form, "title": _("Edit tournament"), "tournament": stored},
        )


def _mers(tournament) -> dict | None:
    """The EMA ranking weight (issue 25) in words for the dashboard; riichi tournaments only."""
    if tournament.rule_set().game != "riichi":
        return None
    found = mers(tournament)
    w = found.weight

    def num(value):
        return number_format(float(value), decimal_pos=1 if value.denominator > 1 else 0)

    return {
        "total": num(w.total),
        "parts": [
            ngettext("%(n)d day: %(w)s", "%(n)d days: %(w)s", w.days)
            % {"n": w.days, "w": num(w.duration)},
            ngettext("%(n)d player: +%(w)s", "%(n)d players: +%(w)s", w.players)
            % {"n": w.players, "w": num(w.for_players)},
            ngettext("%(n)d country: +%(w)s", "%(n)d countries: +%(w)s", w.countries)
            % {"n": w.countries, "w": num(w.for_countries)},
            (
                _("qualification: +%(w)s")
                if tournament.mers_qualification
                else _("no qualification: +%(w)s")
            )
            % {"w": num(w.for_qualification)},
        ],  # fmt: skip
        "missing": found.missing_ema,
        "dated": found.dated,
    }


class Dashboard(DeskRequired, TournamentMixin, View):
    def get(self, request, slug):
        t = self.tournament
        counts = player_counts(t)
        sessions = list(t.sessions.order_by("number"))
        for session in sessions:
            states = table_states(session).values()
            session.n_tables = len(states)
            session.n_confirmed = sum(1 for state in states if done(state))
        context = {
            "tournament": t,
            "counts": counts,
            "sessions": sessions,
            "now": session_now(t),
            "rules": t.rule_set(),
            "frozen": has_confirmed_results(t),
            "rule_changes": t.rule_changes.select_related("changed_by")[:20],
            "mers": _mers(t),
        }
        return render(request, "desk/dashboard.html", context)


class RulesEdit(DirectorRequired, TournamentMixin, View):
    def _render(self, request, form):
        return render(
            request,
            "desk/rules.html",
            {
                "form": form,
                "tournament": self.tournament,
                "frozen": has_confirmed_results(self.tournament),
            },
        )

    def get(self, request, slug):
        return self._render(request, RulesForm(rules=self.tournament.rule_set()))

    def post(self, request, slug):
        form = RulesForm(request.POST, rules=self.tournament.rule_set())
        if form.is_valid():
            ruleset = form.cleaned_data["ruleset"]
            overrides = {} if form.switch_preset else form.overrides()
            try:
                change_rules(
                    self.tournament, ruleset, overrides, request.user, form.cleaned_data["reason"]
                )
            except ActionRefused as e:
                show_refusal(form, e)
                return self._render(request, form)
            messages.success(request, _("Rules saved; standings are recomputed from them."))
            return redirect("desk:tournament", slug=slug)
        return self._render(request, form)


class PlayerList(DeskRequired, TournamentMixin, View):
    def get(self, request, slug):
        t = self.tournament
        players = collated(t.players.select_related("tournament"), t.language, attrgetter("name"))
        table = PlayersTable(players, language=t.language)
        RequestConfig(request, paginate=False).configure(table)
        return render(request, "desk/players.html", {"tournament": self.tournament, "table": table})


class PlayerEdit(DirectorRequired, TournamentMixin, View):
    def _player(self, pk):
        return get_object_or_404(Player, tournament=self.tournament, pk=pk) if pk else None

    def get(self, request, slug, pk=None):
        form = PlayerForm(instance=self._player(pk), tournament=self.tournament)
        return self._render(request, form, pk)

    def _render(self, request, form, pk):
        history = []
        if pk:
            history = form.instance.history.select_related("history_user")[:50]
        return render(
            request,
            "desk/player_form.html",
            {"form": form, "tournament": self.tournament, "history": history},
        )

    def post(self, request, slug, pk=None):
        form = PlayerForm(request.POST, instance=self._player(pk), tournament=self.tournament)
        if form.is_valid():
            try:
                save_player(form.save(commit=False))
            except ActionRefused as e:
                show_refusal(form, e)
                return self._render(request, form, pk)
            messages.success(request, _("Player saved."))
            if ButtonsForm(request.POST, "another").pressed("another"):
                return redirect("desk:player_add", slug=slug)
            return redirect("desk:players", slug=slug)
        return self._render(request, form, pk)


class PlayerImport(DirectorRequired, TournamentMixin, View):
    """Upload → preview → import. Nothing is saved until the preview is confirmed. The preview
    shows how each name is split into first and last name; "Split again" reads the same rows
    in the other order of a name's words (issue 37)."""

    PREVIEWS_KEPT = 3  # a few tabs' previews; each confirms exactly the list it shows
    # The Latin name parts' columns show only when the list fills them.
    LATIN_PARTS = ("latin_first_name", "latin_last_name")

    def _key(self):
        return f"player_import:{self.tournament.pk}"

    def _existing(self) -> dict:
        players = self.tournament.players
        return {
            "existing_names": players.values_list("name", flat=True),
            "existing_keys": players.values_list("key", flat=True),
            "existing_ema": players.values_list("ema_id", flat=True),
        }

    def get(self, request, slug):
        return render(
            request, "desk/import.html", {"tournament": self.tournament, "form": PlayerListForm()}
        )

    def post(self, request, slug):
        confirm = ImportConfirmForm(request.POST)
        asked = confirm.cleaned_data if confirm.is_valid() else {}
        if asked.get("confirm") or asked.get("reorder"):
            previews = request.session.get(self._key(), {})
            name = asked["preview"]
            kept = previews.pop(name, None) if asked["confirm"] else previews.get(name)
            request.session[self._key()] = previews
            if not isinstance(kept, dict):  # none, or one kept before issue 37 (its rows only)
                messages.error(request, _("The preview expired: upload the file again."))
                return redirect("desk:player_import", slug=slug)
            if asked["reorder"]:
                parsed = checked_rows(kept["raw"], asked["order"], **self._existing())
                parsed.ignored_columns = kept["ignored"]
                return self._preview(request, parsed, {"form": PlayerListForm()})
            # The rows read again in the order the preview showed, against the players now.
            parsed = checked_rows(kept["raw"], kept["order"], **self._existing())
            if parsed.errors:
                return self._preview(request, parsed, {"form": PlayerListForm()})
            try:
                count = import_players(self.tournament, parsed.rows)
            except Exception as e:  # a clash that appeared after the preview
                messages.error(request, _("Nothing was imported: %(problem)s") % {"problem": e})
                return redirect("desk:player_import", slug=slug)
            messages.success(
                request,
                ngettext("%(n)d player imported.", "%(n)d players imported.", count) % {"n": count},
            )
            offer = matches_offer(
                self.tournament, reverse("desk:people_matches", args=[self.tournament.slug])
            )
            if offer:
                messages.info(request, offer)
            return redirect("desk:players", slug=slug)
        form = PlayerListForm(request.POST, request.FILES)
        if not form.is_valid():
            context = {"tournament": self.tournament, "form": form}
            return render(request, "desk/import.html", context)
        upload = form.cleaned_data["file"]
        parsed = parse_player_list(
            upload.name,
            upload.read(),
            **self._existing(),
            order=form.cleaned_data["order"],
            family_column=form.cleaned_data["family_column"],
            given_column=form.cleaned_data["given_column"],
        )
        return self._preview(request, parsed, {"form": form})

    def _preview(self, request, parsed, context):
        """The page of a list read: its problems, or its preview with the button that imports
        it and the choice of the order of a name's words."""
        context = {**context, "tournament": self.tournament, "errors": parsed.errors}
        context["ignored"] = parsed.ignored_columns
        if parsed.rows:
            # The confirm button carries this preview's name, so that it imports the list
            # on the page in front of the director, whatever another tab previewed since.
            name = secrets.token_hex(8)
            previews = request.session.get(self._key(), {})
            previews = dict(list(previews.items())[-(self.PREVIEWS_KEPT - 1) :])
            previews[name] = {
                "raw": parsed.raw,
                "order": parsed.order,
                "ignored": parsed.ignored_columns,
            }
            request.session[self._key()] = previews
            context["preview_name"] = name
            unused = [c for c in self.LATIN_PARTS if not any(row[c] for row in parsed.rows)]
            records = list(ImportPreviewTable.records(parsed.rows, self.tournament.language))
            context["preview"] = ImportPreviewTable(records, exclude=unused)
            context["count"] = len(parsed.rows)
            context["order"] = parsed.order
            context["order_form"] = ImportConfirmForm(initial={"order": parsed.order})
            # Whether any name was given whole: the split is then the desk's, to check.
            context["split"] = any(
                row.get("name") and not (row.get("first_name") or row.get("last_name"))
                for _number, row in parsed.raw
            )
        return render(request, "desk/import.html", context)


class CheckIn(DeskRequired, TournamentMixin, View):
    """Every player who may check in, in the tournament language's order, and a search that
    finds names as people type them (core.search). The page's script asks for the players a
    search finds (a fetch: their ids) as the desk user types; without it, the form does."""

    def get(self, request, slug):
        t = self.tournament
        players = t.players.exclude(status__in=[Player.Status.EXCLUDED, Player.Status.DISQUALIFIED])
        search = SearchForm(request.GET)
        needle = search.needle()
        if request.headers.get("x-requested-with") == "fetch":
            found = [pk for pk, name in players.values_list("pk", "name") if needle.matches(name)]
            return JsonResponse({"players": found})
        players = collated(players, t.language, attrgetter("name"))
        for player in players:
            player.found = needle.matches(player.name)
        table = CheckinTable(players, language=t.language)
        context = {"tournament": t, "table": table, "query": search.query()}
        return render(request, "desk/checkin.html", {**context, **_checkin_counts(t)})


def _checkin_counts(tournament) -> dict:
    """The check-in counts, and what the field checked in means for the tables: riichi needs a
    multiple of four (substitutes fill the rest); Sichuan seats the rest three to a table
    (002 §3.1 (3)), which the page says instead."""
    counts = player_counts(tournament)
    sichuan = three_player(tournament.rule_set())
    sizes = table_sizes(counts["checked"], True) if sichuan and counts["checked"] else []
    return {
        "checked": counts["checked"],
        "expected": counts["expected"],
        "substitutes": counts["substitutes_checked"],
        "not_multiple": counts["not_multiple"] and not sichuan,
        "three_handed": sum(1 for size in sizes if size == 3),
    }


class CheckInToggle(DeskRequired, TournamentMixin, View):
    def post(self, request, slug, pk):
        player = get_object_or_404(Player, tournament=self.tournament, pk=pk)
        form = CheckInForm(request.POST)
        player = set_checked_in(player, form.is_valid() and form.cleaned_data["checked_in"])
        counts = _checkin_counts(self.tournament)
        if request.headers.get("x-requested-with") == "fetch":
            counts_html = render_to_string("desk/_checkin_counts.html", counts, request=request)
            return JsonResponse(
                {"checked_in": player.checked_in, **counts, "counts_html": counts_html.strip()}
            )
        return redirect("desk:checkin", slug=slug)


class SessionAdd(DirectorRequired, TournamentMixin, View):
    def post(self, request, slug):
        try:
            session = add_session(self.tournament)
        except ActionRefused as e:
            messages.error(request, e.message)
            return redirect("desk:tournament", slug=slug)
        return redirect("desk:session", slug=slug, number=session.number)
