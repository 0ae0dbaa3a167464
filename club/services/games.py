"""A club rating's writes (issue 25): each one function in one transaction, ending with
`touch_club()`. Games are recorded as they are played; each entry or correction is a new
version, confirmed by a second officer (as a tournament's results, scoring.services)."""

import datetime
import random

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from club.changes import touch_club
from club.grants import give_creator
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
from core.entries import mark_confirmed, refuse_confirmation, refuse_stale
from core.errors import ActionRefused
from core.roles import is_director
from people.models import Person
from people.services import create_person
from scoring.services import refuse_scores, wind_label
from seating.algorithms.draw import draw_tables
from seating.models import WINDS

SEATS = 4  # a rated game is a four-player riichi game (001 §2.1)


def _checked(instance, exclude=None):
    """Validate with the model's own declarations; the first problem names its field."""
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as e:
        field, errors = next(iter(e.message_dict.items()))
        label = field
        if field != "__all__":
            label = str(instance._meta.get_field(field).verbose_name)
        raise ActionRefused(
            _("%(field)s: %(problem)s") % {"field": label.capitalize(), "problem": errors[0]},
            field=field,
        ) from e


# --- the club ------------------------------------------------------------------------------

CLUB_FIELDS = (
    "name",
    "slug",
    "ruleset",
    "min_games",
    "single_confirmation",
    "language",
    "time_zone",
)


@transaction.atomic
def save_club(club: Club | None, data: dict, user) -> Club:
    """Create a club rating (club None) or change its settings. A rule set change recomputes
    every game (the rating is always computed from the current rules)."""
    # The stored club, locked: its revision is touch_club's alone, never written back stale.
    given = club
    club = Club.objects.select_for_update().get(pk=club.pk) if club and club.pk else Club()
    # Single confirmation is the director's (issue 34): an officer who could switch it on would
    # confirm their own game alone.
    single = data.get("single_confirmation", club.single_confirmation)
    if bool(single) != club.single_confirmation and not (user and is_director(user)):
        raise ActionRefused(
            _("Only the director switches single-person confirmation."),
            field="single_confirmation",
        )
    for name in CLUB_FIELDS:
        if name in data:
            setattr(club, name, data[name])
    _checked(club)
    if club.pk:
        club.save(update_fields=CLUB_FIELDS)
    else:
        club.save()
        give_creator(club, user)
    touch_club(club.pk)
    club.refresh_from_db()
    if given is not None and given is not club:
        given.refresh_from_db()  # the caller's copy shows what is stored
    return club


# --- seasons -------------------------------------------------------------------------------


@transaction.atomic
def save_season(club: Club, season: Season | None, name, start, end, user) -> Season:
    """A season is a date range with its own table; seasons of a club do not overlap."""
    season = season or Season(club=club)
    season.name, season.start, season.end = name, start, end
    _checked(season, exclude=["club"])
    if start and end and start > end:
        raise ActionRefused(_("The first day comes after the last day."), field="end")
    clash = (
        Season.objects.filter(club=club, start__lte=end, end__gte=start)
        .exclude(pk=season.pk)
        .first()
    )
    if clash:
        raise ActionRefused(
            _("These dates overlap the season “%(name)s” (%(start)s – %(end)s).")
            % {"name": clash.name, "start": clash.start, "end": clash.end},
            field="start",
        )
    if season.closed:
        raise ActionRefused(_("This season is closed: reopen it to change its dates."))
    # The club is left out of the model's own check above, so its one name per club is here.
    if Season.objects.filter(club=club, name=season.name).exclude(pk=season.pk).exists():
        raise ActionRefused(
            _("The club has a season named “%(name)s” already.") % {"name": season.name},
            field="name",
        )
    season.save()
    touch_club(club.pk)
    return season


@transaction.atomic
def close_season(season: Season, user, close: bool = True) -> Season:
    """Close a season (its games then take a change only with the override), or reopen it."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if close:
        season.closed_at, season.closed_by = timezone.now(), user
    else:
        season.closed_at, season.closed_by = None, None
    season.save(update_fields=["closed_at", "closed_by"])
    touch_club(season.club_id)
    return season


def season_on(club: Club, day: datetime.date) -> Season | None:
    return Season.objects.filter(club=club, start__lte=day, end__gte=day).first()


# --- members -------------------------------------------------------------------------------


@transaction.atomic
def add_member(club: Club, person: Person, user, joined_on=None) -> Member:
    """Make a person a member. A person is a member of a club once; a former member comes back
    as the same membership."""
    if person.merged_into_id:
        raise ActionRefused(
            _("%(name)s was merged into another person.") % {"name": person.name},
            field="person",
        )
    existing = Member.objects.filter(club=club, person=person).first()
    if existing and existing.active:
        raise ActionRefused(
            _("%(name)s is already a member.") % {"name": person.name}, field="person"
        )
    if existing:
        existing.active = True
        existing.save(update_fields=["active"])
        touch_club(club.pk)
        return existing
    member = Member(
        club=club, person=person, joined_on=joined_on or timezone.localdate(), active=True
    )
    _checked(member, exclude=["club", "person"])
    member.save()
    touch_club(club.pk)
    return member


@transaction.atomic
def add_new_member(club: Club, data: dict, user, joined_on=None) -> Member:
    """A person new to the desk (name, country, club, EMA id), made a member at once: both or
    neither are stored."""
    return add_member(club, create_person(data, user), user, joined_on=joined_on)


@transaction.atomic
def set_member_active(member: Member, active: bool, user) -> Member:
    """A member who left is kept with their games, listed apart."""
    member.active = active
    member.save(update_fields=["active"])
    touch_club(member.club_id)
    return member


# --- evenings: who is present, and the tables drawn from them -------------------------------


@transaction.atomic
def evening_on(club: Club, day: datetime.date, user) -> Evening:
    found = Evening.objects.filter(club=club, date=day).first()
    if found:
        return found
    evening = Evening(club=club, date=day)
    _checked(evening, exclude=["club"])
    evening.save()
    return evening


@transaction.atomic
def check_in(evening: Evening, member: Member, user, present: bool = True) -> None:
    if member.club_id != evening.club_id:
        raise ActionRefused(_("Not a member of this club."), field="member")
    if present:
        if not member.active:
            raise ActionRefused(
                _("%(name)s is not an active member.") % {"name": member.person.name},
                field="member",
            )
        Presence.objects.get_or_create(
            evening=evening, member=member, defaults={"by": user, "at": timezone.now()}
        )
    else:
        if _waiting_seats(evening).filter(member=member).exists():
            raise ActionRefused(
                _("%(name)s is seated at a table not yet played.") % {"name": member.person.name},
                field="member",
            )
        Presence.objects.filter(evening=evening, member=member).delete()
    touch_club(evening.club_id)


def _waiting_seats(evening: Evening):
    """Seats of this evening's drawn tables that have no result yet."""
    return GameSeat.objects.filter(game__evening=evening, game__versions__isnull=True)


def _next_number(club: Club, day) -> int:
    top = Game.objects.filter(club=club, played_on=day).aggregate(top=Max("number"))["top"]
    return (top or 0) + 1


@transaction.atomic
def draw_evening(evening: Evening, user, seed: int | None = None) -> list[Game]:
    """Draw tables from the members present and not already waiting at a table (the desk's
    random draw, seating.algorithms.draw). When they are not a multiple of four, those who
    have played most this evening sit out first (ties by the draw)."""
    Club.objects.select_for_update().get(pk=evening.club_id)  # the day's table numbers
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    waiting = set(_waiting_seats(evening).values_list("member_id", flat=True))
    present = [
        m
        for m in Member.objects.filter(presences__evening=evening, active=True)
        if m.pk not in waiting
    ]
    if len(present) < SEATS:
        raise ActionRefused(
            _("%(count)d members are free to play: a table needs four.") % {"count": len(present)}
        )
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    played = {}
    for member_id in GameScore.objects.filter(
        version__game__evening=evening, version__status=GameVersion.Status.CONFIRMED
    ).values_list("member_id", flat=True):
        played[member_id] = played.get(member_id, 0) + 1
    order = sorted(m.pk for m in present)
    random.Random(seed).shuffle(order)
    order.sort(key=lambda pk: played.get(pk, 0))  # stable: the draw orders equals
    seated = order[: len(order) - len(order) % SEATS]
    now = timezone.now()
    number = _next_number(evening.club, evening.date)
    games = []
    for table in draw_tables(seated, seed):
        game = Game.objects.create(
            club=evening.club,
            played_on=evening.date,
            number=number,
            evening=evening,
            created_by=user,
            created_at=now,
        )
        GameSeat.objects.bulk_create(
            GameSeat(game=game, wind=w, member_id=m) for w, m in zip(WINDS, table, strict=True)
        )
        games.append(game)
        number += 1
    touch_club(evening.club_id)
    return games


# --- games ---------------------------------------------------------------------------------


def latest_version(game: Game) -> GameVersion | None:
    return game.versions.order_by("-version").select_related("entered_by", "confirmed_by").first()


def _refuse_closed(club: Club, day, override: bool) -> None:
    season = season_on(club, day)
    if season and season.closed and not override:
        raise ActionRefused(
            _(
                "The season “%(name)s” is closed: a game dated %(date)s changes its final table. "
                "Tick the override to record it anyway."
            )
            % {"name": season.name, "date": day.isoformat()},
            field="played_on",
        )


def _check_seats(club: Club, seats: list, former_allowed=frozenset()) -> None:
    """seats: [(member, score, chombo)] in wind order E, S, W, N. A former member plays no new
    game; `former_allowed` (members of the game's earlier versions) keeps a correction open."""
    if len(seats) != SEATS:
        raise ActionRefused(_("A rated game has four players."))
    seen = {}
    for wind, (member, _score, _chombo) in zip(WINDS, seats, strict=True):
        if member is None:
            raise ActionRefused(
                _("%(seat)s: the player is missing.") % {"seat": wind_label(wind)}, field=wind
            )
        if member.club_id != club.pk:
            raise ActionRefused(
                _("%(seat)s: %(name)s is not a member of this club.")
                % {"seat": wind_label(wind), "name": member.person.name},
                field=wind,
            )
        if not member.active and member.pk not in former_allowed:
            raise ActionRefused(
                _("%(seat)s: %(name)s is a former member.")
                % {"seat": wind_label(wind), "name": member.person.name},
                field=wind,
            )
        if member.person_id in seen:
            raise ActionRefused(
                _("%(name)s is seated twice (%(first)s and %(second)s).")
                % {
                    "name": member.person.name,
                    "first": wind_label(seen[member.person_id]),
                    "second": wind_label(wind),
                },
                field=wind,
            )
        seen[member.person_id] = wind
    refuse_scores(
        club.rule_set(),
        [(w, m.person.name, score) for w, (m, score, _c) in zip(WINDS, seats, strict=True)],
    )
    for wind, (_member, score, chombo) in zip(WINDS, seats, strict=True):
        row = GameScore(wind=wind, score=score, chombo=chombo or 0)
        try:
            row.clean_fields(exclude=["version", "member", "wind"])
        except ValidationError as e:
            field, errors = next(iter(e.message_dict.items()))
            raise ActionRefused(
                _("%(seat)s: %(problem)s") % {"seat": wind_label(wind), "problem": errors[0]},
                field=wind,
            ) from e


def _refuse_entry(club: Club, game: Game | None, day, seats: list, override: bool, version=None):
    """The one check of a game's scores, made when they are recorded and again when they are
    confirmed (what changed in between: a member left, a season closed, the rule set): the
    closed season, then the seats (_check_seats). The members of the game's other versions
    (not `version`'s own) may still sit as former members, so an old game can be corrected."""
    _refuse_closed(club, day, override)
    earlier = set()
    if game is not None:
        others = GameScore.objects.filter(version__game=game)
        if version is not None:
            others = others.exclude(version=version)
        earlier = set(others.values_list("member_id", flat=True))
    _check_seats(club, seats, earlier)


@transaction.atomic
def record_game(
    club: Club,
    seats: list,
    user,
    *,
    played_on: datetime.date | None = None,
    game: Game | None = None,
    base_version: int = 0,
    override_closed: bool = False,
    note: str = "",
) -> GameVersion:
    """Record a game's final scores as a new draft version: a new game (on `played_on`), a
    drawn table's first result, or a correction of a recorded game (`game` with the version
    the officer saw). seats: [(member, score, chombo)] in wind order E, S, W, N. Nothing is
    stored unless every check passes."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    if game is None:
        if played_on is None:
            raise ActionRefused(_("Date: this field is required."), field="played_on")
        probe = Game(club=club, played_on=played_on, number=1, created_by=user)
        try:
            probe.clean_fields(exclude=["club", "created_by", "created_at", "evening"])
        except ValidationError as e:
            raise ActionRefused(
                _("Date: %(problem)s") % {"problem": e.message_dict["played_on"][0]},
                field="played_on",
            ) from e
        day = played_on
    else:
        game = Game.objects.select_for_update().get(pk=game.pk, club=club)
        day = game.played_on
    _refuse_entry(club, game, day, seats, override_closed)
    version = GameVersion(note=note, entered_by=user, entered_at=timezone.now())
    try:
        version.clean_fields(exclude=["game", "version", "entered_by"])
    except ValidationError as e:
        raise ActionRefused(
            _("Note: %(problem)s") % {"problem": e.message_dict["note"][0]}, field="note"
        ) from e
    if game is None:
        game = Game.objects.create(
            club=club,
            played_on=day,
            number=_next_number(club, day),
            created_by=user,
            created_at=version.entered_at,
        )
    refuse_stale(latest_version(game), base_version)
    version.game = game
    version.version = base_version + 1
    version.closed_season_override = override_closed and bool(
        (s := season_on(club, day)) and s.closed
    )
    version.save()
    GameScore.objects.bulk_create(
        GameScore(version=version, wind=wind, member=member, score=score, chombo=chombo or 0)
        for wind, (member, score, chombo) in zip(WINDS, seats, strict=True)
    )
    touch_club(club.pk)
    return version


@transaction.atomic
def void_game(game: Game, user, base_version: int, note: str, override_closed=False):
    """Take a game out of the rating (recorded by mistake): a void draft version, confirmed by
    a second officer like any other; the game and its versions stay."""
    game = Game.objects.select_for_update().select_related("club").get(pk=game.pk)
    _refuse_closed(game.club, game.played_on, override_closed)
    if not note.strip():
        raise ActionRefused(_("Say why the game is taken out."), field="note")
    refuse_stale(latest_version(game), base_version)
    season = season_on(game.club, game.played_on)
    version = GameVersion(
        game=game,
        version=base_version + 1,
        void=True,
        note=note,
        entered_by=user,
        entered_at=timezone.now(),
        closed_season_override=override_closed and bool(season and season.closed),
    )
    try:
        version.clean_fields(exclude=["game", "entered_by"])
    except ValidationError as e:
        raise ActionRefused(
            _("Note: %(problem)s") % {"problem": e.message_dict["note"][0]}, field="note"
        ) from e
    version.save()
    touch_club(game.club_id)
    return version


@transaction.atomic
def confirm_game(version: GameVersion, user) -> GameVersion:
    """A second officer confirms a draft; it replaces the version confirmed before. The draft is
    checked again as it was recorded (_refuse_entry)."""
    game = Game.objects.select_for_update().select_related("club").get(pk=version.game_id)
    # Through the locked game: the version reads its club's single confirmation from it.
    version = game.versions.get(pk=version.pk)
    refuse_confirmation(version, latest_version(game), user)
    # Checked again as it was recorded: a season closed since takes it only as a version
    # recorded with the override; a member who left since, a person seated twice (a merge),
    # scores the rule set no longer takes are refused.
    if version.void:
        _refuse_closed(game.club, game.played_on, version.closed_season_override)
    else:
        scores = sorted(
            version.scores.select_related("member__person"), key=lambda s: WINDS.index(s.wind)
        )
        seats = [(s.member, s.score, s.chombo) for s in scores]
        _refuse_entry(
            game.club, game, game.played_on, seats, version.closed_season_override, version
        )
    mark_confirmed(version, user)
    touch_club(game.club_id)
    return version
