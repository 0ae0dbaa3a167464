"""A club's games, recorded as they are played: each entry, correction or voiding is a new
version, confirmed by a second officer (as a tournament's results, scoring.services)."""

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from club.changes import touch_club
from club.models import Club, Game, GameScore, GameVersion
from core.entries import mark_confirmed, refuse_confirmation, refuse_stale
from core.errors import ActionRefused
from scoring.services import refuse_scores, wind_label
from seating.models import WINDS

from .clubs import season_on

SEATS = 4  # a rated game is a four-player riichi game (001 §2.1)


def next_game_number(club: Club, day) -> int:
    top = Game.objects.filter(club=club, played_on=day).aggregate(top=Max("number"))["top"]
    return (top or 0) + 1


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
            % {"name": season.name, "date": date_format(day, "DATE_FORMAT")},
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
            number=next_game_number(club, day),
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
