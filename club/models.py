"""A club's rating (issue 25; seed 001 §13): members, seasons, evenings and games recorded as they
are played. Every entry and correction of a game is a new version, never an overwrite; a second
officer confirms, as at a tournament desk."""

from contextlib import contextmanager

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.entries import Entry, entry_constraints
from core.moments import validate_calendar
from core.text import validate_line, validate_name
from core.zones import default_zone, in_zone, validate_zone
from mahjong.presets import PRESETS
from people.models import Person
from scoring.models import CHOMBO_MAX, SCORE_LIMIT  # as a tournament's

MIN_GAMES_MAX = 9999
GAME_NUMBER_MAX = 999  # tables of one day


def rated_rule_sets():
    """The rule sets a rating can use: riichi with placement points (001 §13.4)."""
    return [
        (key, _(rules.name))
        for key, rules in PRESETS.items()
        if rules.game == "riichi" and any(rules.uma)
    ]


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200, validators=[validate_name])
    slug = models.SlugField(
        _("slug"),
        max_length=80,
        unique=True,
        help_text=_("The club's web address: /r/<slug>/."),
    )
    ruleset = models.CharField(
        _("rule set"), max_length=40, choices=rated_rule_sets, default="furiten-club"
    )
    min_games = models.PositiveSmallIntegerField(
        _("minimum games"),
        default=0,
        validators=[MaxValueValidator(MIN_GAMES_MAX)],
        help_text=_("Players with fewer rated games are listed apart, without a rank."),
    )
    single_confirmation = models.BooleanField(
        _("allow single-person confirmation"),
        default=False,
        help_text=_("For a club with one officer: who records a game may also confirm it."),
    )
    language = models.CharField(
        _("language of printouts"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, default=default_zone, validators=[validate_zone]
    )
    # Bumped by every change (club.changes.touch_club): the public pages are kept by it.
    revision = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name = _("club rating")
        verbose_name_plural = _("club ratings")

    def __str__(self):
        return self.name

    def rule_set(self):
        return PRESETS[self.ruleset]

    @contextmanager
    def printing(self):
        """The printouts (PDF, XLSX) in the club's language and time zone."""
        with translation.override(self.language or settings.LANGUAGE_CODE), in_zone(self.time_zone):
            yield


class Season(models.Model):
    """A date range with its own rating table. A closed season takes no game without the
    override (kept on the game's version)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120, validators=[validate_line])
    start = models.DateField(_("first day"), validators=[validate_calendar])
    end = models.DateField(_("last day"), validators=[validate_calendar])
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["club", "start"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique"),
            models.CheckConstraint(condition=Q(start__lte=models.F("end")), name="season_dates"),
        ]

    def __str__(self):
        return self.name

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


class Member(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="memberships", verbose_name=_("person")
    )
    joined_on = models.DateField(_("joined"), validators=[validate_calendar])
    active = models.BooleanField(_("active"), default=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["club", "person__name", "pk"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        # No unique (club, person): after a merge of two people one person may hold two
        # memberships of a club until a split; club.services.add_member refuses a second one.

    def __str__(self):
        return str(self.person)


class Evening(models.Model):
    """A club evening: who is present (checked in) and the tables drawn from them."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evenings")
    date = models.DateField(_("date"), validators=[validate_calendar])
    present = models.ManyToManyField(Member, through="Presence", related_name="evenings")

    class Meta:
        ordering = ["club", "-date"]
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        constraints = [
            models.UniqueConstraint(fields=["club", "date"], name="evening_date_unique"),
        ]

    def __str__(self):
        return f"{self.club} {self.date}"


class Presence(models.Model):
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="presences")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="presences")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["evening", "member"], name="presence_unique"),
        ]

    def __str__(self):
        return f"{self.evening}: {self.member}"


class Game(models.Model):
    """A rated game: a table on a date. Its scores are in its versions; a drawn table has its
    seats (GameSeat) before any score."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games")
    played_on = models.DateField(_("date"), validators=[validate_calendar])
    number = models.PositiveSmallIntegerField(
        _("table"), validators=[MinValueValidator(1), MaxValueValidator(GAME_NUMBER_MAX)]
    )
    evening = models.ForeignKey(
        Evening, on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["club", "played_on", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "played_on", "number"], name="game_table_unique"
            ),
        ]

    def __str__(self):
        return f"{self.played_on} #{self.number}"


class GameSeat(models.Model):
    """A seat of a drawn table, before its scores (E, S, W, N)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    wind = models.CharField(max_length=1)
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["game", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "wind"], name="gameseat_wind_unique"),
        ]

    def __str__(self):
        return f"{self.game} {self.wind}"


class GameVersion(Entry):
    """A version of a game's final scores (core.entries.Entry: recorded, confirmed by a second
    officer, superseded by the next confirmed one)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="versions")
    # A void version takes the game out of the rating (a game recorded by mistake).
    void = models.BooleanField(default=False)
    # The game is dated in a closed season and an officer recorded it anyway.
    closed_season_override = models.BooleanField(default=False)

    VERSION_OF = "game"
    STALE_EDIT = _("This game was changed by %(who)s at %(when)s — reload the page.")
    SECOND_PERSON = _("You recorded this game: a second officer must confirm it.")

    class Meta:
        ordering = ["game", "-version"]
        constraints = entry_constraints(
            "game", unique="gameversion_unique", one_confirmed="game_one_confirmed"
        )

    def __str__(self):
        return f"{self.game} v{self.version} ({self.status})"

    @property
    def event(self):
        return self.game.club


class GameScore(models.Model):
    version = models.ForeignKey(GameVersion, on_delete=models.CASCADE, related_name="scores")
    wind = models.CharField(max_length=1)
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    score = models.IntegerField(
        validators=[MinValueValidator(-SCORE_LIMIT), MaxValueValidator(SCORE_LIMIT)]
    )
    chombo = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(CHOMBO_MAX)])

    class Meta:
        ordering = ["version", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["version", "wind"], name="gamescore_wind_unique"),
        ]

    def __str__(self):
        return f"{self.wind} {self.score}"


class OfficerGrant(models.Model):
    """A club officer's way into one club rating (issue 34): the group says the user is an
    officer, the grant of which clubs. The director (and a superuser) needs none. Taking it back
    deletes the grant; its history keeps who gave and who took it, and when."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_grants",
        verbose_name=_("user"),
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="grants", verbose_name=_("club rating")
    )
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("given by"),
    )
    granted_at = models.DateTimeField(_("given"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["club", "user"]
        verbose_name = _("club officer's club")
        verbose_name_plural = _("club officers' clubs")
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="officergrant_unique"),
        ]

    def __str__(self):
        return f"{self.user} · {self.club}"
