"""Tournaments, their players and sessions."""

from contextlib import contextmanager
from decimal import Decimal

from django.conf import settings
from django.core.validators import (
    MaxLengthValidator,
    MaxValueValidator,
    MinValueValidator,
)
from django.db import models
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.moments import validate_calendar
from core.roles import DESK, HEAD_REFEREE, REFEREE, ROLE_NAMES
from core.text import Shape, validate_line, validate_name, validate_text
from core.zones import default_zone, in_zone, validate_zone
from mahjong.messages import RuleError
from mahjong.presets import PRESETS, ruleset_from
from people.models import Named, Person

# A player's key is part of the player's public address (/t/<slug>/p/<key>/): the characters an
# address carries as they are (RFC 3986's unreserved ones), and never only dots ("." or ".."
# would walk up the address). One declaration for the pages, the lists and the file (issue 22).
KEY = Shape(
    r"(?!\.+$)[A-Za-z0-9._~-]+",
    _("A key is letters, digits and - _ . ~ only (it is part of the player's web address)."),
)
validate_key = KEY.validator

# Addresses under /desk/ that are not a tournament's: a tournament of one of these slugs would be
# hidden behind them (/desk/new/, /desk/import/, /desk/people/, /desk/users/, /desk/standby/;
# "club" and "clubs" kept for the club ratings' pages). The tournament form refuses them and a
# slug made from a name avoids them.
RESERVED_SLUGS = frozenset({"new", "import", "people", "club", "clubs", "users", "standby"})

# The longest texts the desk keeps: what happened, an appeal and its decision; a rule change's
# reason. Declared on the fields (a TextField's max_length alone binds only forms).
LONG_TEXT = 100_000
REASON_TEXT = 10_000
DAY_SECONDS = 24 * 3600  # a session's clock: its length and warning
# Sessions of one tournament: the standings show one column each (a long weekend has ten).
SESSIONS_MAX = 99


def long_text(verbose_name, max_length=LONG_TEXT, **kwargs):
    """A multi-line text of at most max_length characters, checked by forms, the model and the
    tournament file alike."""
    return models.TextField(
        verbose_name,
        max_length=max_length,
        validators=[validate_text, MaxLengthValidator(max_length)],
        **kwargs,
    )


class Tournament(models.Model):
    class Scope(models.TextChoices):
        INDIVIDUAL = "individual", _("Individual")
        TEAM = "team", _("Individual and team")

    class Winds(models.TextChoices):
        # SBR seats players by wind cards drawn at the table (002 §2.4.6), EMA by wind tiles
        # unless the schedule fixes the winds (000 §2.3): the desk's draw still places players
        # at tables, and the seats' winds wait for the table's own draw (seating.services.
        # record_table_winds).
        DESK = "desk", _("winds from the desk's draw")
        TABLE = "table", _("winds drawn at the table")

    name = models.CharField(_("name"), max_length=200, validators=[validate_name])
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    start_date = models.DateField(
        _("start date"), null=True, blank=True, validators=[validate_calendar]
    )
    end_date = models.DateField(
        _("end date"), null=True, blank=True, validators=[validate_calendar]
    )
    venue = models.CharField(_("venue"), max_length=200, blank=True, validators=[validate_line])
    ruleset = models.CharField(
        _("rule set"), max_length=40, choices=[(k, _(r.name)) for k, r in PRESETS.items()]
    )
    # Overrides of the preset's fields, by field name (mahjong.rulesets.FIELD_NAMES).
    rules = models.JSONField(_("rule overrides"), default=dict, blank=True)
    planned_sessions = models.PositiveSmallIntegerField(
        _("planned sessions"),
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(SESSIONS_MAX)],
    )
    fee = models.DecimalField(
        _("fee"), max_digits=12, decimal_places=2, default=0, validators=[MinValueValidator(0)]
    )
    scope = models.CharField(
        _("standings scope"), max_length=20, choices=Scope.choices, default=Scope.INDIVIDUAL
    )
    keep_apart = models.CharField(
        _("keep apart"),
        max_length=10,
        blank=True,
        choices=[("club", _("club")), ("country", _("country")), ("team", _("team"))],
        help_text=_("Seating keeps players who share this value at different tables when it can."),
    )
    winds = models.CharField(
        _("winds"),
        max_length=10,
        choices=Winds.choices,
        default=Winds.DESK,
        help_text=_(
            "Drawn at the table: seating lists show tables only, and each table records who "
            "drew East, South, West and North before its first hand."
        ),
    )
    single_confirmation = models.BooleanField(
        _("allow single-person confirmation"),
        default=False,
        help_text=_("For small events: the desk user who enters a result may also confirm it."),
    )
    language = models.CharField(
        _("language of printouts"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="en",
        help_text=_(
            "Table protocols, seating lists, standings and the appeals log (PDF and XLSX) "
            "are printed in this language."
        ),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=default_zone,
        validators=[validate_zone],
        help_text=_("Every time is typed and shown in it (the appeal window, the clock, logs)."),
    )
    # The EMA ranking weight (mahjong.mers): a tournament one must qualify for counts more.
    mers_qualification = models.BooleanField(
        _("players qualified for it"),
        default=False,
        help_text=_("EMA ranking (MERS): a tournament whose players had to qualify counts +1."),
    )
    release_by_session = models.BooleanField(
        _("release results by session"),
        default=False,
        help_text=_(
            "The public pages show a session's results only once every table of it is "
            "confirmed, so nobody at a late table plays to standings they can already see."
        ),
    )
    # The finish (docs/using/finishing.md, "Finishing the tournament"): while finished_at is set
    # the results are final and every write that would change them is refused
    # (tournament.services.refuse_if_finished). A reopening keeps its reason; the history keeps
    # every finish and reopening.
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True, editable=False)
    finished_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("finished by"),
    )
    reopened_at = models.DateTimeField(_("reopened"), null=True, blank=True, editable=False)
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("reopened by"),
    )
    reopen_reason = long_text(_("reason for reopening"), REASON_TEXT, blank=True, editable=False)
    # Bumped whenever something the public pages show changes; part of every cache key.
    revision = models.PositiveIntegerField(default=0, editable=False)
    # Bumped with it by every change that may touch the players or the seats (touch()'s
    # default); a result, a hand, a penalty or the clock leave it as it was, so the seats and
    # the player list, kept by it, are not read again on each (issue 26).
    seating_revision = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name

    # Only touch() moves them, in the database: what is kept is kept by them (core.kept), so a
    # revision number must never come back. A tournament saved whole (its settings form, the
    # admin, a revert from its history) was read before some touch() and would write its old
    # numbers back, and a later revision would be answered from an older one's kept values.
    COUNTERS = ("revision", "seating_revision")

    def save(self, *args, **kwargs):
        stored = self.pk is not None and (
            not self._state.adding or type(self).objects.filter(pk=self.pk).exists()
        )  # (a revert from the history builds an instance "being added" of a stored row)
        if stored and kwargs.get("update_fields") is None and not kwargs.get("force_insert"):
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name not in self.COUNTERS
            ]
        super().save(*args, **kwargs)

    @property
    def finished(self) -> bool:
        """The director finished the tournament: its results are final."""
        return self.finished_at is not None

    @contextmanager
    def printing(self):
        """Context manager: the printouts (PDF, XLSX, print pages) in the tournament's language
        and time zone."""
        with translation.override(self.language or settings.LANGUAGE_CODE), in_zone(self.time_zone):
            yield

    def rule_set(self):
        """The effective rule set: the preset with this tournament's overrides."""
        try:
            return ruleset_from(self.ruleset, self.rules)
        except RuleError:
            return PRESETS[self.ruleset]

    @property
    def appeal_deposit(self):
        """002 §2.9: the deposit is a multiple of the fee (SBR: 2F)."""
        return self.fee * Decimal(str(self.rule_set().appeal_deposit_fees))


class Player(Named):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WITHDRAWN = "withdrawn", _("withdrawn")
        DISQUALIFIED = "disqualified", _("disqualified")
        EXCLUDED = "excluded", _("excluded")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    key = models.CharField(
        _("key"),
        max_length=40,
        help_text=_("The player's id in files."),
        validators=[validate_key],
    )
    team = models.CharField(_("team"), max_length=120, blank=True, validators=[validate_line])
    # The person this player is (issue 25): linked when the director accepts a match, never
    # silently (people.services).
    person = models.ForeignKey(
        Person,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("person"),
    )
    substitute = models.BooleanField(_("substitute"), default=False)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="player_key_unique"),
            models.UniqueConstraint(fields=["tournament", "name"], name="player_name_unique"),
        ]

    def __str__(self):
        return self.name


class Session(models.Model):
    class Method(models.TextChoices):
        MANUAL = "manual", _("by hand")
        DRAW = "draw", _("random draw")
        BALANCED = "balanced", _("balanced plan")
        SWISS = "swiss", _("by standings (Swiss)")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveSmallIntegerField(
        _("number"), validators=[MinValueValidator(1), MaxValueValidator(SESSIONS_MAX)]
    )
    method = models.CharField(
        _("seating method"), max_length=20, choices=Method.choices, default=Method.MANUAL
    )
    seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    # When play ended; the appeal window (002 §2.9.2) runs from here. Set by the desk.
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    # The clock's planned length and warning for this session; empty: the rule set's.
    length_seconds = models.PositiveIntegerField(
        _("length (seconds)"), null=True, blank=True, validators=[MaxValueValidator(DAY_SECONDS)]
    )
    warning_seconds = models.PositiveIntegerField(
        _("warning (seconds)"), null=True, blank=True, validators=[MaxValueValidator(DAY_SECONDS)]
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="session_number_unique")
        ]

    def __str__(self):
        return _("Session %(number)s") % {"number": self.number}

    def clock_seconds(self, rules=None) -> tuple[int, int]:
        """Planned length and warning offset in seconds: the session's own, or the rule set's."""
        rules = rules or self.tournament.rule_set()
        length = self.length_seconds or rules.session_minutes * 60
        warning = (
            self.warning_seconds if self.warning_seconds is not None else rules.warning_minutes * 60
        )
        return length, warning


class ClockEvent(models.Model):
    """One thing the desk did to a session's clock. Never changed or deleted: the history."""

    class Kind(models.TextChoices):
        START = "start", _("start")
        PAUSE = "pause", _("pause")
        RESUME = "resume", _("resume")
        ADJUST = "adjust", _("time changed")
        END = "end", _("end")
        RESET = "reset", _("reset")
        REOPEN = "reopen", _("end taken back")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="clock_events")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    at = models.DateTimeField(_("at"))
    seconds = models.IntegerField(_("seconds"), default=0)
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )

    class Meta:
        ordering = ["session", "at", "id"]
        verbose_name = _("clock event")
        verbose_name_plural = _("clock events")

    def __str__(self):
        return f"{self.session} {self.kind} {self.at:%H:%M:%S}"


class RuleChange(models.Model):
    """An explicit change of a tournament's rules after results were confirmed."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rule_changes"
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    old_ruleset = models.CharField(max_length=40)
    old_rules = models.JSONField(default=dict)
    new_ruleset = models.CharField(max_length=40)
    new_rules = models.JSONField(default=dict)
    reason = long_text(_("reason"), REASON_TEXT)

    class Meta:
        ordering = ["-changed_at"]

    def __str__(self):
        return f"{self.old_ruleset} → {self.new_ruleset}"


class Record(models.Model):
    """A referee's record: who made it and when; voiding marks it, never deletes it."""

    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    recorded_at = models.DateTimeField(_("recorded"))
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    voided_at = models.DateTimeField(_("voided"), null=True, blank=True)
    void_reason = models.CharField(
        _("reason for voiding"), max_length=300, blank=True, validators=[validate_line]
    )

    class Meta:
        abstract = True

    @property
    def is_void(self):
        return self.voided_at is not None


class Restore(models.Model):
    """A tournament replaced by one of its backups. It names the tournament by slug, not by key,
    because a restore deletes the tournament's rows and creates them again from the file."""

    slug = models.SlugField(_("tournament"), max_length=80)
    backup = models.CharField(_("restored from"), max_length=200)
    before = models.CharField(_("state before, saved as"), max_length=200)
    changes = models.PositiveIntegerField(_("changes"))
    restored_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    restored_at = models.DateTimeField(_("restored"))

    class Meta:
        ordering = ["-restored_at", "-pk"]
        verbose_name = _("restore")
        verbose_name_plural = _("restores")

    def __str__(self):
        return f"{self.slug} ← {self.backup}"


class StaffGrant(models.Model):
    """A desk user's, referee's or head referee's way into one tournament (issue 34): the role's
    group says what the user does, the grant where. The director (and a superuser) needs none.
    Taking a role back deletes the grant; its history keeps who gave and who took it, and when."""

    ROLES = [(role, ROLE_NAMES[role]) for role in (DESK, REFEREE, HEAD_REFEREE)]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_grants",
        verbose_name=_("user"),
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="grants", verbose_name=_("tournament")
    )
    role = models.CharField(_("role"), max_length=20, choices=ROLES)
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
        ordering = ["tournament", "user", "role"]
        verbose_name = _("tournament role")
        verbose_name_plural = _("tournament roles")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "tournament", "role"], name="staffgrant_unique"
            ),
        ]

    def __str__(self):
        return f"{self.user} · {self.tournament} · {self.role}"
