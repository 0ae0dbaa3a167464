"""What a club rating's pages, printouts, workbook and feed read (issue 25): written once.

The rating is computed from the confirmed versions of the games by the pure core
(mahjong.rating.RatingBook, 001 §13), once per club revision: every change (a new game, a
correction of an old one, a rule set change) bumps the revision, so every table and chart after
it is recomputed from all the games.
"""

import datetime
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from threading import Lock

from django.db.models import Count, Q
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.models import Club, Evening, Game, GameScore, GameSeat, GameVersion, Member, Season
from core.collation import sort_key
from core.tables import fmt
from mahjong.presets import PRESETS
from mahjong.rating import Game as RatedGame
from mahjong.rating import RatedSeat, RatingBook, RatingTable, rating_svg
from people.models import Person
from seating.models import WINDS

_BOOKS: dict = {}  # club pk → (revision, RatingBook, people, games by key)
_BOOKS_LOCK = Lock()


@dataclass(frozen=True, slots=True)
class GameLine:
    """One seat of a confirmed game, as every page and file shows it."""

    wind: str
    person: Person
    member_id: int
    score: int
    chombo: int
    place: int
    points: int | float  # the game's rating points (001 §13)


@dataclass(frozen=True, slots=True)
class RatedGameRow:
    pk: int
    played_on: datetime.date
    number: int
    version: int
    lines: list  # of GameLine, in wind order


class Book:
    """A club's games scored for a revision; the game rows the pages list are made the first
    time they are asked for."""

    def __init__(self, revision, ruleset, person_of, book, people, by_version, heads):
        self.revision = revision  # (revision, created_at) of the club
        self.ruleset = ruleset
        self.person_of = person_of  # member pk → person pk
        self.book = book
        self.people = people  # person pk → Person
        # confirmed version pk → (seats [(wind index, member, person, score, chombo)], scored)
        self.by_version = by_version
        self.heads = heads  # [(version pk, game pk, date, table number, version)], as played
        self.places = {}  # game pk → (date, table number)
        self._games = None

    @property
    def games(self) -> dict:
        """game pk → RatedGameRow, in the order played."""
        if self._games is None:
            # Rating units take few values (tenths): each is shown once.
            people, show, games = self.people, lru_cache(maxsize=None)(self.book._show), {}
            for version_pk, game_pk, played_on, number, version in self.heads:
                seats, (_day, _key, scored) = self.by_version[version_pk]
                games[game_pk] = RatedGameRow(
                    game_pk,
                    played_on,
                    number,
                    version,
                    [
                        GameLine(WINDS[w], people[p], m, score, chombo, place, show(units))
                        for (w, m, p, score, chombo), (_person, place, units) in zip(
                            seats, scored, strict=True
                        )
                    ],
                )
            self._games = games
        return self._games


def _confirmed_heads(club_id, known: dict) -> tuple[list, dict]:
    """(version pk, game pk, date, table number, version) of each confirmed, non-void game, in
    the order played, and game pk → (date, number) of the club's games. A game's date and
    number never change, so those already `known` are not read again."""
    rows = GameVersion.objects.filter(
        game__club_id=club_id, status=GameVersion.Status.CONFIRMED, void=False
    ).values_list("pk", "game_id", "version")
    rows = list(rows)
    places = known
    if any(game_pk not in known for _pk, game_pk, _v in rows):
        places = {
            pk: (day, number)
            for pk, day, number in Game.objects.filter(club_id=club_id).values_list(
                "pk", "played_on", "number"
            )
        }
    heads = sorted(
        ((pk, game_pk, *places[game_pk], version) for pk, game_pk, version in rows),
        key=lambda r: (r[2], r[3]),
    )
    return heads, places


def _seats(version_pks, club_id, person_of) -> dict:
    """version pk → its seats in wind order, [(wind index, member, person, score, chombo)]."""
    wind_index = {w: i for i, w in enumerate(WINDS)}
    found = GameScore.objects.values_list("version_id", "wind", "member_id", "score", "chombo")
    if len(version_pks) > 500:  # most of the club's games: one query over the club (a
        # version's scores never change, so one confirmed since the heads were read is here too)
        found = found.filter(version__game__club_id=club_id)
    else:
        found = found.filter(version_id__in=version_pks)
    seats = defaultdict(list)
    for version_pk, wind, member_id, score, chombo in found:
        seats[version_pk].append((wind_index[wind], member_id, person_of[member_id], score, chombo))
    for rows in seats.values():
        rows.sort()
    return seats


def _build(club_id, ruleset, previous: "Book | None") -> Book:
    """Score the club's games. A book kept from an earlier revision lends the games that have
    not changed (a confirmed version's scores never change: a correction is a new version);
    only new versions are read and scored. A rule set change or a merge of people (members
    linked to other people) scores everything again."""
    heads, places = _confirmed_heads(club_id, previous.places if previous else {})
    # Read after the heads: every member a confirmed score names is in it.
    person_of = dict(Member.objects.filter(club_id=club_id).values_list("pk", "person_id"))
    book = RatingBook(PRESETS[ruleset], scored=[])
    reuse = {}
    if (
        previous
        and previous.ruleset == ruleset
        and all(person_of.get(m) == p for m, p in previous.person_of.items())
    ):
        reuse = previous.by_version  # new members change no game already scored
    missing = [h[0] for h in heads if h[0] not in reuse]
    fresh = _seats(missing, club_id, person_of) if missing else {}
    by_version = {}
    scored = book.scored
    for version_pk, game_pk, played_on, _number, _version in heads:
        kept = reuse.get(version_pk)
        if kept is None:
            seats = fresh[version_pk]
            entry = book.score(
                RatedGame(game_pk, played_on, [RatedSeat(p, sc, ch) for _w, _m, p, sc, ch in seats])
            )
            kept = (seats, entry)
        by_version[version_pk] = kept
        scored.append(kept[1])
    people = Person.objects.in_bulk(set(person_of.values()))  # names may have changed
    kept = Book(None, ruleset, person_of, book, people, by_version, heads)
    kept.places = places
    return kept


def rating_book(club: Club) -> Book:
    """The club's games scored once per revision (kept in this process)."""
    # The revision with the club's creation time: a club deleted and another created with the
    # same number (SQLite reuses it) is a different book.
    # The rule set is read with the revision: a book is built by the rules of its revision.
    revision, created_at, ruleset = (
        Club.objects.filter(pk=club.pk).values_list("revision", "created_at", "ruleset").get()
    )
    found = (revision, created_at)
    with _BOOKS_LOCK:
        kept = _BOOKS.get(club.pk)
    if kept is not None and kept.revision == found:
        return kept
    previous = kept if kept is not None and kept.revision[1] == created_at else None
    built = _build(club.pk, ruleset, previous)
    built.revision = found
    with _BOOKS_LOCK:
        if len(_BOOKS) > 32:
            _BOOKS.clear()
        _BOOKS[club.pk] = built
    return built


def seasons(club: Club) -> list[Season]:
    return list(Season.objects.filter(club=club).order_by("-start"))


def current_season(club: Club, today: datetime.date) -> Season | None:
    return Season.objects.filter(club=club, start__lte=today, end__gte=today).first()


@dataclass(slots=True)
class Rating:
    club: Club
    season: Season | None  # None: all time
    table: RatingTable
    games: int  # games in the period

    @property
    def empty_text(self) -> str:
        """What the ranked table says when it is empty: no games, or nobody at the minimum yet
        (the first evening's players are all listed apart)."""
        if self.table.unranked:
            count = self.table.min_games
            return ngettext(
                "Nobody has played the %(count)d game the rating needs yet.",
                "Nobody has played the %(count)d games the rating needs yet.",
                count,
            ) % {"count": count}
        return _("No rated games yet.")


def rating(club: Club, season: Season | None = None) -> Rating:
    """The rating table of a season, or of all time (season None), with the club's minimum
    number of games: people below it are listed apart (`table.unranked`)."""
    kept = rating_book(club)
    since, until = (season.start, season.end) if season else (None, None)
    people = kept.people
    table = kept.book.table(
        since=since,
        until=until,
        min_games=club.min_games,
        name=lambda pk: sort_key(people[pk].name),
    )
    for row in (*table.rows, *table.unranked):
        row.person = people[row.person]
    count = sum(
        1
        for _v, _g, played_on, _n, _version in kept.heads
        if (since is None or played_on >= since) and (until is None or played_on <= until)
    )
    return Rating(club, season, table, count)


def rated_games(club: Club, season: Season | None = None, newest_first=True) -> list[RatedGameRow]:
    """The confirmed games with each seat's place, score and points (001 §13)."""
    games = list(rating_book(club).games.values())
    if season is not None:
        games = [g for g in games if season.start <= g.played_on <= season.end]
    return games[::-1] if newest_first else games


def person_club_games(club: Club, person: Person) -> list[RatedGameRow]:
    return [g for g in rated_games(club) if any(line.person.pk == person.pk for line in g.lines)]


def person_games(person: Person) -> list[tuple[Club, RatedGameRow]]:
    """Every rated game of a person, in every club, newest first (the person page)."""
    clubs = Club.objects.filter(members__person=person).distinct()
    found = []
    for club in clubs:
        found += [(club, g) for g in person_club_games(club, person)]
    found.sort(key=lambda cg: (cg[1].played_on, cg[1].number), reverse=True)
    return found


def _axis_rating(value) -> str:
    """A rating on the chart's axis, one decimal at most, as the reader writes it ("24,3")."""
    return fmt(round(float(value), 1))


def _axis_day(day: datetime.date) -> str:
    return date_format(day, "SHORT_DATE_FORMAT")


def person_chart(club: Club, person: Person) -> str:
    """The person's rating over time in this club, as server-drawn SVG, its axis in the
    reader's language (issue 37: a Russian page read "24.2" and "2026-11-28")."""
    line = rating_book(club).book.timeline(person.pk)
    return rating_svg(
        line,
        number=_axis_rating,
        day=_axis_day,
        labels={
            "title": _("Rating of %(name)s") % {"name": person.name},
            "desc": _("The rating after each game, from the first game to the last."),
            "empty": _("No rated games yet."),
        },
    )


def members(club: Club, active: bool | None = None) -> list[Member]:
    """The club's members with their people, in name order."""
    found = Member.objects.filter(club=club).select_related("person")
    if active is not None:
        found = found.filter(active=active)
    return sorted(found, key=lambda m: sort_key(m.person.name))


@dataclass(slots=True)
class GameState:
    game: Game
    seats: list  # of (wind, Member) as drawn or as last recorded
    latest: GameVersion | None
    confirmed: GameVersion | None

    @property
    def status(self) -> str:
        if self.latest is None:
            return "waiting"
        if self.latest.void and self.latest.status == GameVersion.Status.CONFIRMED:
            return "void"
        return self.latest.status


def game_states(games) -> list[GameState]:
    """Each game's seats and its latest and confirmed versions, in a fixed number of queries."""
    games = list(games)
    ids = [g.pk for g in games]
    versions = defaultdict(list)
    for v in (
        GameVersion.objects.filter(game_id__in=ids)
        .select_related("entered_by", "confirmed_by")
        .prefetch_related("scores__member__person")
        .order_by("game_id", "-version")
    ):
        versions[v.game_id].append(v)
    drawn = defaultdict(list)
    for seat in GameSeat.objects.filter(game_id__in=ids).select_related("member__person"):
        drawn[seat.game_id].append(seat)
    states = []
    for g in games:
        vs = versions[g.pk]
        for v in vs:  # its club's single confirmation (Entry.may_confirm) without a query
            v.game = g
        latest = vs[0] if vs else None
        confirmed = next((v for v in vs if v.status == GameVersion.Status.CONFIRMED), None)
        shown = next((v for v in vs if not v.void), None)
        if shown is not None:
            seats = [(s.wind, s.member) for s in sorted(shown.scores.all(), key=_wind_order)]
        else:
            seats = [(s.wind, s.member) for s in sorted(drawn[g.pk], key=_wind_order)]
        states.append(GameState(g, seats, latest, confirmed))
    return states


def _wind_order(row):
    return WINDS.index(row.wind)


def evening_games(evening: Evening) -> list[GameState]:
    return game_states(
        Game.objects.filter(evening=evening).select_related("club").order_by("number")
    )


def day_games(club: Club, day: datetime.date) -> list[GameState]:
    return game_states(
        Game.objects.filter(club=club, played_on=day).select_related("club").order_by("number")
    )


def drafts(club: Club) -> list[GameState]:
    """Games whose latest version waits for a second officer."""
    ids = (
        GameVersion.objects.filter(game__club=club, status=GameVersion.Status.DRAFT)
        .values_list("game_id", flat=True)
        .distinct()
    )
    games = (
        Game.objects.filter(pk__in=list(ids)).select_related("club").order_by("played_on", "number")
    )
    return [s for s in game_states(games) if s.latest.status == GameVersion.Status.DRAFT]


def game_history(game: Game) -> list[GameVersion]:
    """Every version of a game, newest first, with its scores, who and when."""
    return list(
        game.versions.select_related("entered_by", "confirmed_by")
        .prefetch_related("scores__member__person")
        .order_by("-version")
    )


def present(evening: Evening) -> list[Member]:
    return sorted(
        Member.objects.filter(presences__evening=evening).select_related("person"),
        key=lambda m: sort_key(m.person.name),
    )


def waiting_seats(evening: Evening):
    """Seats of this evening's drawn tables that have no result yet."""
    return GameSeat.objects.filter(game__evening=evening, game__versions__isnull=True)


def free_members(evening: Evening) -> list[Member]:
    """The active members present who sit at no table of the evening still waiting for its
    result: those the next draw seats from. In name order."""
    found = (
        Member.objects.filter(presences__evening=evening, active=True)
        .exclude(pk__in=waiting_seats(evening).values("member_id"))
        .select_related("person")
    )
    return sorted(found, key=lambda m: sort_key(m.person.name))


def sitting_out(evening: Evening | None) -> list[Member]:
    """Who sits out while the evening's drawn tables play (issue 37: the draw did not say): the
    free members, once a table of the evening waits for its result; nobody before a draw."""
    if evening is None or not waiting_seats(evening).exists():
        return []
    return free_members(evening)


def club_counts(club: Club) -> dict:
    return Member.objects.filter(club=club).aggregate(
        members=Count("pk", filter=Q(active=True)), former=Count("pk", filter=Q(active=False))
    )
