"""The club rating's file read back into a new club (`manage.py restore_club`): every value
checked by the models' own declarations, every reference by the file, the scores by the rule
set; the first problem is refused naming its path, and nothing is stored (archive.club_file).
"""

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.tournament_file import TournamentFileError, parse
from archive.tournament_file.errors import show
from club.changes import touch_club
from club.models import (
    Club,
    Evening,
    Game,
    GameScore,
    GameSeat,
    GameVersion,
    Member,
    Presence,
    Season,
)
from club.services import CLUB_FIELDS
from core.errors import rule_message
from mahjong.table import validate_scores
from people.models import NAMED_FIELDS, Person
from seating.models import WINDS

from .export import FORMAT, VERSION

# The versions a restore checks as the rule set takes them: the rating's, and those it may take.
CHECKED = (GameVersion.Status.CONFIRMED, GameVersion.Status.DRAFT)


def fail(path: str, message) -> None:
    raise TournamentFileError(path, str(message))


@dataclass
class Restored:
    """What a restore made: the club, and for each person of the file the desk's person it
    became (`linked`: an existing one with the same EMA id; `created`: a new one); the users it
    created (inactive, no password)."""

    club: Club
    linked: list = field(default_factory=list)  # [(file's name, Person)]
    created: list = field(default_factory=list)  # [Person]
    users: list = field(default_factory=list)  # [username]


def restore_club(content, slug: str | None = None) -> Restored:
    """A new club from the file (bytes, text or its dict), under `slug` or the file's. Raises
    TournamentFileError naming the first problem's path; then nothing is stored."""
    data = parse(content)
    with transaction.atomic():
        restored = _Reader(data).read(slug)
        touch_club(restored.club.pk)
    return restored


def delete_club(slug: str) -> None:
    """Inside the caller's transaction: the club at `slug` and all its rows, leaves first (a
    member is protected from deletion while a game's seat or score, or a check-in, names it)."""
    GameScore.objects.filter(version__game__club__slug=slug).delete()
    GameSeat.objects.filter(game__club__slug=slug).delete()
    Presence.objects.filter(evening__club__slug=slug).delete()
    Club.objects.filter(slug=slug).delete()


def replace_club(content, slug: str) -> Restored:
    """The club at `slug` (if any) replaced by the file, in one transaction: a refused file
    changes nothing. Shared by the federation server's mirror and the standby's take-over."""
    with transaction.atomic():
        delete_club(slug)
        return restore_club(content, slug=slug)


def _items(path: str, value, required: bool = True) -> list:
    """[(path[i], item)] of a list of objects."""
    if value is None and not required:
        return []
    if not isinstance(value, list):
        fail(path, _("must be a list"))
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            fail(f"{path}[{index}]", _("must be an object"))
    return [(f"{path}[{index}]", item) for index, item in enumerate(value)]


def _clean(path: str, instance, exclude=(), fast: bool = False) -> None:
    """Check the instance by its model's declarations; the first problem is refused at its
    path. `fast`: values only (no queries): the reader checks references and constraints."""
    try:
        instance.full_clean(
            exclude=list(exclude), validate_unique=not fast, validate_constraints=not fast
        )
    except ValidationError as e:
        name, errors = next(iter(e.message_dict.items()))
        fail(path if name == "__all__" else f"{path}.{name}", errors[0])
    for f in instance._meta.concrete_fields:
        value = getattr(instance, f.attname)
        if f.get_internal_type() == "DateTimeField" and value and timezone.is_naive(value):
            fail(f"{path}.{f.name}", _("needs its offset from UTC (such as +00:00)"))


class _Reader:
    def __init__(self, data: dict):
        self.data = data
        self.users = {}  # username -> User
        self.new_users = []
        self.people = {}  # file id -> Person
        self.members = {}  # file id -> Member (the first membership of that person)

    def read(self, slug) -> Restored:
        data = self.data
        if data.get("format") != FORMAT:
            fail("format", _("must be %(format)s") % {"format": show(FORMAT)})
        if data.get("version") != VERSION:
            fail("version", _("must be %(version)s") % {"version": VERSION})
        self.club = self.read_club(data.get("club"), slug)
        self.restored = Restored(self.club)
        self.read_people(_items("people", data.get("people")))
        self.read_members(_items("members", data.get("members")))
        self.read_seasons(_items("seasons", data.get("seasons"), required=False))
        self.read_evenings(_items("evenings", data.get("evenings"), required=False))
        self.read_games(_items("games", data.get("games"), required=False))
        self.restored.users = self.new_users
        return self.restored

    # --- references

    def user(self, path, name, required=True):
        if name is None and not required:
            return None
        if not isinstance(name, str) or not name:
            fail(path, _("must be a user name"))
        if name not in self.users:
            User = get_user_model()
            user = User._default_manager.filter(username=name).first()
            if user is None:
                # Kept so who entered and confirmed survives; no one can log in as them.
                user = User(username=name, is_active=False)
                user.set_unusable_password()
                _clean(path, user)
                user.save()
                self.new_users.append(name)
            self.users[name] = user
        return self.users[name]

    def member(self, path, value) -> Member:
        if value not in self.people:
            fail(path, _("no person has the id %(id)s in people") % {"id": show(value)})
        if value not in self.members:
            fail(path, _("the person %(id)s is not a member") % {"id": show(value)})
        return self.members[value]

    def wind(self, path, value) -> str:
        if value not in WINDS:
            fail(path, _("must be one of E, S, W, N, not %(value)s") % {"value": show(value)})
        return value

    # --- parts

    def read_club(self, head, slug) -> Club:
        if not isinstance(head, dict):
            fail("club", _("must be an object"))
        club = Club(**{name: head.get(name) for name in CLUB_FIELDS})
        if slug:
            club.slug = slug
        if isinstance(club.slug, str) and Club.objects.filter(slug=club.slug).exists():
            fail(
                "club.slug",
                _("a club rating %(slug)s exists on this desk; restore it under another slug")
                % {"slug": show(club.slug)},
            )
        _clean("club", club)
        club.save()
        return club

    def read_people(self, items):
        for path, item in items:
            pid = item.get("id")
            if not isinstance(pid, int) or isinstance(pid, bool):
                fail(f"{path}.id", _("must be a whole number"))
            if pid in self.people:
                fail(f"{path}.id", _("the id %(id)s is given twice") % {"id": pid})
            person = Person(**{name: item.get(name, "") for name in NAMED_FIELDS})
            _clean(path, person)
            same = []
            if person.ema_id:
                same = list(
                    Person.objects.filter(ema_id=person.ema_id, merged_into__isnull=True)[:2]
                )
            if len(same) == 1:
                self.people[pid] = same[0]
                self.restored.linked.append((person.name, same[0]))
            else:
                person.save()
                self.people[pid] = person
                self.restored.created.append(person)

    def read_members(self, items):
        for path, item in items:
            pid = item.get("person")
            if pid not in self.people:
                fail(
                    f"{path}.person", _("no person has the id %(id)s in people") % {"id": show(pid)}
                )
            member = Member(
                club=self.club,
                person=self.people[pid],
                joined_on=item.get("joined_on"),
                active=item.get("active", True),
            )
            _clean(path, member)
            member.save()
            self.members.setdefault(pid, member)

    def read_seasons(self, items):
        for path, item in items:
            season = Season(
                club=self.club,
                name=item.get("name"),
                start=item.get("start"),
                end=item.get("end"),
                closed_at=item.get("closed_at"),
                closed_by=self.user(f"{path}.closed_by", item.get("closed_by"), required=False),
            )
            _clean(path, season)
            season.save()

    def read_evenings(self, items):
        self.evenings = {}
        for path, item in items:
            evening = Evening(club=self.club, date=item.get("date"))
            _clean(path, evening)
            evening.save()
            self.evenings[evening.date.isoformat()] = evening
            seen = set()
            for ppath, p in _items(f"{path}.present", item.get("present"), required=False):
                member = self.member(f"{ppath}.person", p.get("person"))
                if member.pk in seen:
                    fail(f"{ppath}.person", _("is present twice"))
                seen.add(member.pk)
                presence = Presence(
                    evening=evening,
                    member=member,
                    by=self.user(f"{ppath}.by", p.get("by")),
                    at=p.get("at"),
                )
                _clean(ppath, presence, fast=True)
                presence.save()

    def read_games(self, items):
        rules = self.club.rule_set()
        games, seats, versions, scores = [], [], [], []  # rows, with their parent's index
        tables = set()
        for path, item in items:
            evening = item.get("evening")
            if evening is not None and evening not in self.evenings:
                fail(
                    f"{path}.evening",
                    _("no evening on %(date)s in evenings") % {"date": show(evening)},
                )
            game = Game(
                club=self.club,
                played_on=item.get("played_on"),
                number=item.get("number"),
                evening=self.evenings.get(evening) if evening is not None else None,
                created_by=self.user(f"{path}.created_by", item.get("created_by")),
                created_at=item.get("created_at"),
            )
            _clean(path, game, exclude=["club", "evening", "created_by"], fast=True)
            if (game.played_on, game.number) in tables:
                fail(f"{path}.number", _("another game has this table on this date"))
            tables.add((game.played_on, game.number))
            games.append(game)
            winds = set()
            for spath, s in _items(f"{path}.seats", item.get("seats"), required=False):
                seat = GameSeat(
                    wind=self.wind(f"{spath}.wind", s.get("wind")),
                    member=self.member(f"{spath}.person", s.get("person")),
                )
                if seat.wind in winds:
                    fail(
                        f"{spath}.wind", _("the wind %(wind)s is given twice") % {"wind": seat.wind}
                    )
                winds.add(seat.wind)
                seats.append((len(games) - 1, seat))
            self.read_versions(path, item, rules, len(games) - 1, versions, scores)
        Game.objects.bulk_create(games)
        for index, seat in seats:
            seat.game = games[index]
        GameSeat.objects.bulk_create([seat for _i, seat in seats])
        for index, version in versions:
            version.game = games[index]
        GameVersion.objects.bulk_create([version for _i, version in versions])
        for index, score in scores:
            score.version = versions[index][1]
        GameScore.objects.bulk_create([score for _i, score in scores])

    def read_versions(self, path, item, rules, game_index, versions, scores):
        numbers, confirmed = set(), None
        for vpath, v in _items(f"{path}.versions", item.get("versions")):
            version = GameVersion(
                version=v.get("version"),
                status=v.get("status"),
                void=v.get("void", False),
                closed_season_override=v.get("closed_season_override", False),
                entered_by=self.user(f"{vpath}.entered_by", v.get("entered_by")),
                entered_at=v.get("entered_at"),
                confirmed_by=self.user(f"{vpath}.confirmed_by", v.get("confirmed_by"), False),
                confirmed_at=v.get("confirmed_at"),
                superseded_at=v.get("superseded_at"),
                note=v.get("note", ""),
            )
            _clean(vpath, version, exclude=["game", "entered_by", "confirmed_by"], fast=True)
            if version.version in numbers:
                fail(
                    f"{vpath}.version",
                    _("the version %(n)s is given twice") % {"n": version.version},
                )
            numbers.add(version.version)
            if version.status == GameVersion.Status.CONFIRMED:
                if confirmed is not None:
                    fail(
                        f"{vpath}.status",
                        _("a game has one confirmed version; %(other)s is confirmed too")
                        % {"other": confirmed},
                    )
                confirmed = vpath
            versions.append((game_index, version))
            by_wind = {}
            for spath, s in _items(f"{vpath}.scores", v.get("scores"), required=False):
                score = GameScore(
                    wind=self.wind(f"{spath}.wind", s.get("wind")),
                    member=self.member(f"{spath}.person", s.get("person")),
                    score=s.get("score"),
                    chombo=s.get("chombo", 0),
                )
                _clean(spath, score, exclude=["version", "member"], fast=True)
                if score.wind in by_wind:
                    fail(
                        f"{spath}.wind",
                        _("the wind %(wind)s is given twice") % {"wind": score.wind},
                    )
                by_wind[score.wind] = (spath, score)
                scores.append((len(versions) - 1, score))
            # A draft is confirmed as it stands (club.services.confirm_game), so it is held
            # to what a confirmed version is: a draft with one person twice restored before.
            if version.status in CHECKED and not version.void:
                self.check_scores(vpath, rules, by_wind)

    def check_scores(self, vpath, rules, by_wind):
        """A confirmed version's or a draft's scores as the rule set takes them, in wind order,
        each person in one seat."""
        seated = [by_wind[w] for w in WINDS if w in by_wind]
        problems = validate_scores(rules, [score.score for _p, score in seated])
        if problems:
            problem = problems[0]
            where = f"{vpath}.scores" if problem.seat < 0 else f"{seated[problem.seat][0]}.score"
            fail(where, rule_message(problem))
        people = [score.member.person_id for _p, score in seated]
        if len(set(people)) != len(people):
            fail(f"{vpath}.scores", _("a person has two seats"))
