"""Table results: every entry and correction is a new version, never an overwrite."""

import json

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.entries import VERSION_MAX, Entry, entry_constraints
from core.text import validate_line, validate_text
from seating.models import Table, Wind
from tournament.models import Player, Record

MAX_MINUTES_LATE = 999  # far past any rule set's scale; the page's input says so too
SCORE_LIMIT = 10**9  # a table score: far beyond any table, well inside the database's integer
CHOMBO_MAX = 20  # chombo of one player in one game
HANDS_MAX = 200  # hands of one table in one session: a game has a few dozen at most
HAND_DATA_MAX = 4000  # one hand as JSON, in characters: a Sichuan hand of 40 events is 2,000


class Result(Entry):
    """A version of a table's result (core.entries.Entry: entered, confirmed by a second desk
    user, superseded by the next confirmed one)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    # Nobody: a draft the table page made from its hands (the desk confirms it as any other),
    # or a version whose user a tournament file named and this desk lacks.
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )

    VERSION_OF = "table"
    STALE_EDIT = _("This table was changed by %(who)s at %(when)s — reload the page.")
    SECOND_PERSON = _("You entered this result: a second desk user must confirm it.")
    NOBODY = _("the table page")  # a draft the table's own hands made

    class Meta:
        ordering = ["table", "-version"]
        constraints = entry_constraints(
            "table", unique="result_version_unique", one_confirmed="result_one_confirmed"
        )

    def __str__(self):
        return f"{self.table} v{self.version} ({self.status})"

    @property
    def event(self):
        return self.table.session.tournament


class ResultScore(models.Model):
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="scores")
    wind = models.CharField(max_length=1, choices=Wind.choices)
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+")
    score = models.IntegerField(
        null=True, validators=[MinValueValidator(-SCORE_LIMIT), MaxValueValidator(SCORE_LIMIT)]
    )
    chombo = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(CHOMBO_MAX)])

    class Meta:
        ordering = ["result", "wind"]
        constraints = [
            models.UniqueConstraint(fields=["result", "wind"], name="score_wind_unique"),
        ]

    def __str__(self):
        return f"{self.wind} {self.score}"


class Penalty(Record):
    """A penalty as the referee recorded it; its amount and stage come from the rule set
    (mahjong.penalties.resolve) unless the kind takes an amount. Voiding keeps the record."""

    class Kind(models.TextChoices):
        LATE = "late", _("late arrival")
        MISCONDUCT = "misconduct", _("misconduct")
        MINOR = "minor", _("minor violation")
        CHOMBO = "chombo", _("chombo")
        OTHER = "other", _("other")

    class Stage(models.TextChoices):
        BEFORE = "before", _("before placement")
        AFTER = "after", _("after placement")

    session = models.ForeignKey(
        "tournament.Session", on_delete=models.CASCADE, related_name="penalties"
    )
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="penalties")
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="penalties"
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    minutes = models.PositiveSmallIntegerField(
        _("minutes late"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_MINUTES_LATE)],
    )
    # Only for the kinds that take one (misconduct, other) or an explicit amount from a file.
    amount = models.DecimalField(
        _("amount"), max_digits=12, decimal_places=2, null=True, blank=True
    )
    stage = models.CharField(_("counts"), max_length=6, choices=Stage.choices, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True, validators=[validate_line])
    history = HistoricalRecords()

    class Meta(Record.Meta):
        ordering = ["session", "recorded_at", "pk"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self):
        return f"{self.session} {self.player}: {self.get_kind_display()}"


def validate_hand_data(value):
    """A hand is one JSON object of at most HAND_DATA_MAX characters (the tournament file's
    hand object; what it may hold is the hand arithmetic's to say, mahjong.hands)."""
    if not isinstance(value, dict):
        raise ValidationError(_("A hand is a JSON object."), code="hand_object")
    size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    if size > HAND_DATA_MAX:
        raise ValidationError(
            _("A hand is at most %(max)d characters as JSON, not %(size)d."),
            code="hand_size",
            params={"max": HAND_DATA_MAX, "size": size},
        )


class Via(models.TextChoices):
    DESK = "desk", _("the desk")
    TABLE = "table", _("the table page")


class Hand(models.Model):
    """One hand of a table's score sheet (docs/rules.md §5), as the players' phones record it.

    `data` is the hand object of the tournament file exactly (docs/formats.md,
    "Hands"); mahjong.hands.play turns a table's current hands into its scores. A hand is never
    overwritten: a correction is a new version of the same `number`, the old one superseded with
    who, when and why; undoing the last hand supersedes it without a new version. The database
    keeps one current hand per number. `client_id` is the phone's id of the hand, so a phone
    that sends the same hand twice (offline, retrying) records it once."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(
        _("hand"), validators=[MinValueValidator(1), MaxValueValidator(HANDS_MAX)]
    )
    version = models.PositiveIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(VERSION_MAX)]
    )
    data = models.JSONField(validators=[validate_hand_data])
    client_id = models.UUIDField(null=True, blank=True, unique=True)
    # Who, when nobody is logged in: the table page (its link is the table's only key) and the
    # wind of the phone that sent it, if the phone said whose it is.
    via = models.CharField(_("recorded on"), max_length=5, choices=Via.choices, default=Via.DESK)
    device = models.CharField(
        _("device of"), max_length=1, choices=Wind.choices, blank=True, default=""
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(_("recorded"))
    superseded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    superseded_at = models.DateTimeField(_("superseded"), null=True, blank=True)
    # Why it was corrected or undone (several lines may be needed to tell a referee).
    reason = models.CharField(
        _("reason for the correction"), max_length=500, blank=True, validators=[validate_text]
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "number", "version"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number", "version"], name="hand_version_unique"
            ),
            # The database, not the phone, guarantees one current hand per place in the game.
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=Q(superseded_at__isnull=True),
                name="hand_one_current",
            ),
        ]

    def __str__(self):
        return f"{self.table} #{self.number} v{self.version}"

    @property
    def is_current(self):
        return self.superseded_at is None


class HandConfirmation(models.Model):
    """A player's confirmation of one hand (002 §2.5.8 (4): a hand's result is final once every
    player has confirmed it), by the wind the player holds at the table. `device` is the wind of
    the phone that confirmed it, if the phone said whose it is (it then confirms only that
    seat); blank for a table's shared device (each player's own tap) and for the desk."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="confirmations")
    wind = models.CharField(_("wind"), max_length=1, choices=Wind.choices)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    via = models.CharField(_("confirmed on"), max_length=5, choices=Via.choices, default=Via.DESK)
    device = models.CharField(
        _("device of"), max_length=1, choices=Wind.choices, blank=True, default=""
    )
    confirmed_at = models.DateTimeField(_("confirmed"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["hand", "wind"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "wind"], name="hand_confirmed_once_per_wind"),
        ]

    def __str__(self):
        return f"{self.hand} {self.wind}"
