"""Reading a session's tables of a tournament file: the seats and their scores, a table's hands
(played through mahjong.hands), the winds that confirmed each hand, and the history of its
result, each checked against the others and the file's rule set.

A part of the Reader (reader.py), which gives it `rules`, `now`, `tournament` and `player_ref`.
"""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import rule_message
from mahjong.hands import HandError, play
from mahjong.table import is_awarded, three_player, validate_scores
from scoring.models import CHOMBO_MAX
from seating.models import WINDS

from . import schema
from .errors import show
from .plan import Table, Version
from .values import Record, fail


class TablesReader:
    def read_tables(self, session, items):
        numbers = {}
        seated = {}  # player key → path of the seat, within the session
        replaced = {}
        for path, item in items:
            t = Record(schema.TABLE, path, item)
            number = t["number"]
            if number in numbers:
                fail(
                    t.at("number"),
                    _("table %(number)d is already %(other)s")
                    % {"number": number, "other": numbers[number]},
                )
            numbers[number] = path
            table = Table(number=number, seats=[])
            seats = t.items("seats")
            self.check_seat_count(t.at("seats"), len(seats))
            hands = t.items("hands")
            status = t["status"]
            scores, chombos, chombo_given = [], [], []
            for j, (seat_path, item) in enumerate(seats):
                seat = Record(schema.SEAT, seat_path, item)
                wind = seat.data.get("wind", WINDS[j])
                if wind != WINDS[j]:
                    fail(
                        seat.at("wind"),
                        _("%(value)s is out of order: the seats go E, S, W, N, so this is %(wind)s")
                        % {"value": show(wind), "wind": WINDS[j]},
                    )
                key = self.player_ref(seat.at("player"), seat.get("player"))
                if key in seated:
                    fail(
                        seat.at("player"),
                        _("%(key)s is already seated in this session at %(other)s")
                        % {"key": show(key), "other": seated[key]},
                    )
                if key in replaced:
                    fail(
                        seat.at("player"),
                        _("%(key)s is replaced in this session at %(other)s")
                        % {"key": show(key), "other": replaced[key]},
                    )
                seated[key] = seat_path
                replaces = self.read_replaces(seat, key, seated, replaced)
                joined = seat["joined"]
                score = seat["score"]
                if score is not None and status == schema.PLAYING:
                    fail(
                        seat.at("score"),
                        _(
                            "the table is still in play (status playing): its seats have no "
                            "score until its result is sent to the desk"
                        ),
                    )
                chombo = seat["chombo"]
                if score is None and chombo and not hands:
                    fail(seat.at("chombo"), _("a chombo needs a score on the seat"))
                scores.append(score)
                chombos.append(chombo)
                chombo_given.append(seat.get("chombo") is not None)
                table.seats.append((WINDS[j], key, replaces, joined))
            if t["winds_drawn_at"]:
                table.winds_drawn = (t["winds_drawn_at"], t["winds_drawn_by"])
            if hands:
                # A table in play keeps its hands and takes no scores from them: the table goes
                # on from where it was, and no result is made of it.
                fill = status != schema.PLAYING
                self.read_hands(path, table, hands, scores, chombos, chombo_given, fill)
            table.confirmed = self.read_confirmed(table, t.items("hands_confirmed"), len(hands))
            current = self.check_scores(path, scores)
            history = t.items("history")
            if history:
                table.versions = self.read_history(path, table, history, scores, chombos, status)
            elif current:
                table.versions = [
                    Version(
                        version=1,
                        status=status,
                        entered_by=None,
                        entered_at=None,
                        confirmed_by=None,
                        confirmed_at=None,
                        superseded_at=None,
                        note="",
                        scores=[
                            (wind, key, score, chombo)
                            for (wind, key, _r, _j), score, chombo in zip(
                                table.seats, scores, chombos, strict=True
                            )
                        ],
                        by_importer=True,
                    )
                ]
            session.tables.append(table)

    def read_hands(self, path, table, items, scores, chombos, chombo_given, fill=True):
        """The table's hands, played through the arithmetic (mahjong.hands.play): seats without
        scores take what the hands give (unless `fill` is false: a table still in play), seats
        with scores must show it; a riichi seat's chombo is the number of chombo hands it
        caused (taken from the hands when the seat gives none). `scores` and `chombos` are
        filled in place."""
        winds = [wind for wind, _k, _r, _j in table.seats]
        if is_awarded(self.rules, len(winds)):
            fail(f"{path}.hands", _("an awarded table (one or two players) has no hands"))
        hands = [schema.HAND.read(hand_path, item) for hand_path, item in items]
        try:
            outcome = play(self.rules, hands, winds)
        except HandError as e:
            fail(f"{path}.{e.path}", rule_message(e))
        if fill and all(score is None for score in scores):
            scores[:] = [outcome.scores[wind] for wind in winds]
        for j, wind in enumerate(winds):
            given, made = scores[j], outcome.scores[wind]
            if given is not None and given != made:
                fail(
                    f"{path}.seats[{j}].score",
                    _("%(score)s, but the hands give %(hands)s")
                    % {
                        "score": number_format(given, force_grouping=True),
                        "hands": number_format(made, force_grouping=True),
                    },
                )
            if outcome.chombo is None:
                continue
            count = outcome.chombo[wind]
            if chombo_given[j] and chombos[j] != count:
                fail(
                    f"{path}.seats[{j}].chombo",
                    _("%(chombo)d, but the hands have %(count)d chombo by this seat")
                    % {"chombo": chombos[j], "count": count},
                )
            if count > CHOMBO_MAX:
                fail(
                    f"{path}.hands",
                    _("%(count)d chombo by one seat; a seat has at most %(max)d")
                    % {"count": count, "max": CHOMBO_MAX},
                )
            chombos[j] = count
        table.hands = hands

    def read_confirmed(self, table, items, count) -> list:
        """Per hand, the winds of the table's players who confirmed it (a desk key): at most
        one list per hand, each wind a seat of the table and given once."""
        if len(items) > count:
            fail(
                items[count][0],
                ngettext(
                    "the table has %(count)d hand; this confirms one more",
                    "the table has %(count)d hands; this confirms one more",
                    count,
                )
                % {"count": count},
            )
        winds = [wind for wind, _k, _r, _j in table.seats]
        confirmed = []
        for path, item in items:
            given = schema.TABLE.fields["hands_confirmed"].items.read(path, item)
            for j, wind in enumerate(given):
                wind = schema.TABLE.fields["hands_confirmed"].items.items.read(f"{path}[{j}]", wind)
                if wind not in winds:
                    fail(
                        f"{path}[{j}]",
                        _("%(value)s is not a seat of this table") % {"value": show(wind)},
                    )
                if wind in given[:j]:
                    fail(f"{path}[{j}]", _("%(value)s is given twice") % {"value": show(wind)})
            confirmed.append(tuple(given))
        return confirmed

    def read_replaces(self, seat: Record, key, seated, replaced):
        """The key of the player the seat's substitute replaces, or None."""
        replaces = seat.get("replaces")
        if replaces is None or replaces == "":
            return None
        path = seat.at("replaces")
        replaces = self.player_ref(path, replaces)
        if replaces == key:
            fail(path, _("a player cannot replace themselves"))
        if replaces in seated or replaces in replaced:
            fail(
                path,
                _("%(key)s is already seated or replaced in this session at %(other)s")
                % {"key": show(replaces), "other": seated.get(replaces) or replaced[replaces]},
            )
        replaced[replaces] = seat.path
        return replaces

    def check_seat_count(self, path, count):
        if three_player(self.rules):
            if not 1 <= count <= 4:
                fail(
                    path,
                    _("a Sichuan table has 4 or 3 seats (1 or 2 when awarded), not %(count)d")
                    % {"count": count},
                )
        elif count != 4:
            fail(path, _("a riichi table has 4 seats, not %(count)d") % {"count": count})

    def check_scores(self, path, scores) -> bool:
        """True when the seats carry scores (all of them), after checking them."""
        given = [s is not None for s in scores]
        awarded = is_awarded(self.rules, len(scores))
        if awarded:
            if any(given):
                index = given.index(True)
                fail(
                    f"{path}.seats[{index}].score",
                    _("an awarded table (one or two players) has no scores"),
                )
            return False
        if not any(given):
            return False
        if not all(given):
            index = given.index(False)
            fail(
                f"{path}.seats[{index}].score",
                _("is missing: either every seat of a table has a score or none has"),
            )
        problems = validate_scores(self.rules, scores)
        if problems:
            problem = problems[0]
            where = f"{path}.seats" if problem[0] < 0 else f"{path}.seats[{problem[0]}].score"
            fail(where, rule_message(problem))
        return True

    def read_history(self, path, table, items, scores, chombos, status):
        versions = []
        seen = set()
        confirmed = None
        winds = [wind for wind, _k, _r, _j in table.seats]
        seat_player = {wind: key for wind, key, _r, _j in table.seats}
        if items and is_awarded(self.rules, len(table.seats)):
            fail(f"{path}.history", _("an awarded table has no results"))
        for vpath, item in items:
            v = Record(schema.TABLE_VERSION, vpath, item)
            version = v["version"]
            if version in seen:
                fail(
                    v.at("version"),
                    _("version %(version)d is listed twice") % {"version": version},
                )
            seen.add(version)
            vstatus = v["status"]
            if vstatus == "confirmed":
                if confirmed is not None:
                    fail(
                        v.at("status"),
                        _("a table has one confirmed version; version %(other)d is confirmed too")
                        % {"other": confirmed},
                    )
                confirmed = version
            rows = v.items("scores")
            if [r.get("wind") if isinstance(r, dict) else None for _p, r in rows] != winds:
                fail(
                    v.at("scores"),
                    _("must have one score per seat, in the order %(winds)s")
                    % {"winds": ", ".join(winds)},
                )
            version_scores = []
            for rpath, row in rows:
                r = Record(schema.VERSION_SCORE, rpath, row)
                key = r.get("player")
                key = (
                    seat_player[r.get("wind")]
                    if key is None
                    else self.player_ref(r.at("player"), key)
                )
                version_scores.append((r.get("wind"), key, r["score"], r["chombo"]))
            if vstatus == "draft":
                # A draft can still be confirmed: its scores must hold as the seats' do.
                problems = validate_scores(self.rules, [s for _w, _k, s, _c in version_scores])
                if problems:
                    seat = problems[0][0]
                    where = v.at("scores") if seat < 0 else f"{vpath}.scores[{seat}].score"
                    fail(where, rule_message(problems[0]))
            versions.append(
                Version(
                    version=version,
                    status=vstatus,
                    scores=version_scores,
                    **{
                        key: v[key]
                        for key in (
                            "entered_by",
                            "entered_at",
                            "confirmed_by",
                            "confirmed_at",
                            "superseded_at",
                            "note",
                        )
                    },
                )
            )
        versions.sort(key=lambda v: v.version)
        self.check_current(path, versions, scores, chombos, status)
        return versions

    def check_current(self, path, versions, scores, chombos, status):
        """The version on the seats (the confirmed one, else the newest draft) is theirs."""
        current = next((v for v in versions if v.status == "confirmed"), None)
        if current is None:
            drafts = [v for v in versions if v.status == "draft"]
            current = drafts[-1] if drafts else None
        has_scores = any(s is not None for s in scores)
        if current is not None and status == schema.PLAYING:
            fail(
                f"{path}.status",
                _(
                    "the table is still in play (status playing), but its history's current "
                    "version %(version)d is %(status)s"
                )
                % {"version": current.version, "status": current.status},
            )
        if current is None:
            if has_scores:
                fail(
                    f"{path}.history",
                    _("has no confirmed or draft version for the scores on the seats"),
                )
            return
        if not has_scores:
            fail(
                f"{path}.seats",
                _("have no scores, but the history has version %(version)d (%(status)s)")
                % {"version": current.version, "status": current.status},
            )
        if current.status != status:
            fail(
                f"{path}.status",
                _(
                    "the table is %(table)s but its history's current version %(version)d "
                    "is %(status)s"
                )
                % {"table": status, "version": current.version, "status": current.status},
            )
        shown = [(score, chombo) for _w, _k, score, chombo in current.scores]
        if shown != list(zip(scores, chombos, strict=True)):
            fail(
                f"{path}.seats",
                _("the scores differ from version %(version)d in the history")
                % {"version": current.version},
            )
