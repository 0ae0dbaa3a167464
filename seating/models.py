"""Tables and seats of a session."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.text import validate_text
from seating.codes import place_code
from tournament.models import Player, Session

WINDS = ["E", "S", "W", "N"]


class Wind(models.TextChoices):
    EAST = "E", _("East")
    SOUTH = "S", _("South")
    WEST = "W", _("West")
    NORTH = "N", _("North")


class TableQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """Tables made in bulk (the tournament file, the benchmarks) get their code as save()
        gives it."""
        objs = list(objs)
        for table in objs:
            table.fill_code()
        return super().bulk_create(objs, *args, **kwargs)


class Table(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    # The short code typed at /h/ (seating.codes.place_code of the table's place under the
    # desk's secret), kept so that a typed code is found by the index, not by hashing every
    # table; made again for every table when the secret changes (seating.keys.table_for_code).
    code = models.CharField(_("short code"), max_length=9, db_index=True, editable=False)
    # When the tournament's winds are drawn at the table: who recorded the draw, and when;
    # null until then (seating.selectors.winds_pending).
    winds_drawn_at = models.DateTimeField(_("winds drawn"), null=True, blank=True, editable=False)
    winds_drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("winds recorded by"),
    )
    # The code follows from the place and the secret: nobody changes it, so no history.
    history = HistoricalRecords(excluded_fields=["code"])

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="table_number_unique")
        ]

    def __str__(self):
        return _("Table %(number)s") % {"number": self.number}

    def save(self, *args, **kwargs):
        update_fields = kwargs.get("update_fields")
        if update_fields is None or "code" in update_fields:
            self.fill_code()
        super().save(*args, **kwargs)

    def fill_code(self):
        session = self.session
        self.code = place_code(session.tournament.slug, session.number, self.number)


class TableCodes(models.Model):
    """One row: which secret the tables' stored codes were made under (seating.codes.secret_mark).
    A database brought to a desk with another secret has every code made again on the first
    code typed (seating.keys.table_for_code)."""

    secret_mark = models.CharField(max_length=64)

    def __str__(self):
        return self.secret_mark


class Seat(models.Model):
    class Joined(models.TextChoices):
        START = "start", _("from the start")
        DURING = "during", _("during play")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Kept beside the table so the database itself refuses a player seated twice in a session.
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    wind = models.CharField(_("wind"), max_length=1, choices=Wind.choices)
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    replaces = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="replaced_seats"
    )
    joined = models.CharField(max_length=10, choices=Joined.choices, default=Joined.START)
    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "wind"]
        constraints = [
            models.UniqueConstraint(fields=["table", "wind"], name="seat_wind_unique"),
            models.UniqueConstraint(fields=["session", "player"], name="seat_player_once"),
        ]

    def __str__(self):
        return f"{self.wind}: {self.player}"

    @property
    def wind_order(self):
        return WINDS.index(self.wind)


class SeatingChange(models.Model):
    """Who changed a session's seating, when, how and why. Seats also keep their own history;
    this is the line a director reads, and the reason given for reseating a played session."""

    class Kind(models.TextChoices):
        DRAW = "draw", _("random draw")
        PLAN = "plan", _("balanced plan")
        SWISS = "swiss", _("by standings (Swiss)")
        SWAP = "swap", _("swap")
        MOVE = "move", _("move")
        TABLE = "table", _("table by hand")
        REMOVE = "remove", _("table removed")
        SUBSTITUTE = "substitute", _("substitute")
        THREE_HANDED = "three", _("three-handed")
        WINDS = "winds", _("winds drawn at the table")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seating_changes")
    kind = models.CharField(_("change"), max_length=10, choices=Kind.choices)
    detail = models.CharField(_("detail"), max_length=500)
    reason = models.CharField(_("reason"), max_length=500, blank=True, validators=[validate_text])
    played = models.BooleanField(_("session had results"), default=False)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    changed_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["-changed_at", "-pk"]

    def __str__(self):
        return f"{self.session}: {self.detail}"


class SeatingPlan(models.Model):
    """A balanced plan for sessions first..last, computed in the background and applied by
    the director once its figures are seen. `rounds` holds player keys in wind order."""

    class Status(models.TextChoices):
        RUNNING = "running", _("searching")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")
        APPLIED = "applied", _("applied")

    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="seating_plans"
    )
    first = models.PositiveSmallIntegerField(_("first session"))
    last = models.PositiveSmallIntegerField(_("last session"))
    seed = models.BigIntegerField(_("seed"))
    keep_apart = models.CharField(_("keep apart"), max_length=10, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    progress = models.JSONField(default=dict)
    rounds = models.JSONField(default=list)
    figures = models.JSONField(default=dict)
    message = models.CharField(max_length=500, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    applied_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return _("Plan of sessions %(first)d–%(last)d") % {"first": self.first, "last": self.last}
