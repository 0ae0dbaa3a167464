"""Incidents and appeals: the referee's records that are not penalties, and the appeals against
a referee's decision (002 §2.9). Their writes are referee.services and referee.appeals.

They came from the tournament room (issue 35) and keep its tables (`tournament_incident`,
`tournament_appeal` and their histories): a hall's database is upgraded without a row moved.
"""

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.moments import validate_calendar
from core.text import validate_line
from scoring.models import Penalty
from seating.models import Table
from tournament.models import Player, Record, Session, Tournament, long_text


class Incident(Record):
    """A referee's record that is not a penalty: a note, a substitution, a disqualification,
    a table going three-handed. Voiding keeps the record, marked void, with who and when."""

    class Kind(models.TextChoices):
        NOTE = "note", _("incident")
        SUBSTITUTION = "substitution", _("substitution")
        THREE_HANDED = "three_handed", _("three-handed table")
        DISQUALIFICATION = "disqualification", _("disqualification")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="incidents")
    session = models.ForeignKey(
        Session, on_delete=models.CASCADE, null=True, blank=True, related_name="incidents"
    )
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="incidents"
    )
    substitute = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+"
    )
    text = long_text(_("what happened"), blank=True)
    # What a void has to put back (the seat's player, the player's status), as plain values.
    undo = models.JSONField(default=dict, blank=True)
    history = HistoricalRecords(table_name="tournament_historicalincident")

    class Meta(Record.Meta):
        db_table = "tournament_incident"
        ordering = ["-recorded_at", "-pk"]
        verbose_name = _("incident")
        verbose_name_plural = _("incidents")

    def __str__(self):
        return f"{self.get_kind_display()}: {self.player or ''}"


class Appeal(models.Model):
    """An appeal against a referee's decision (002 §2.9), from filing to decision."""

    class Status(models.TextChoices):
        FILED = "filed", _("filed")
        UNDER_REVIEW = "under_review", _("under review")
        UPHELD = "upheld", _("upheld")
        REJECTED = "rejected", _("rejected")

    class Body(models.TextChoices):
        HEAD_REFEREE = "head referee", _("head referee")
        ARBITRATION = "arbitration committee", _("arbitration committee")
        COMMITTEE = "organisers' committee", _("organisers' committee")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="appeals")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="appeals")
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    appellant = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="appeals", verbose_name=_("appellant")
    )
    captain = models.BooleanField(_("filed by the team captain"), default=False)
    penalty = models.ForeignKey(
        Penalty,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="appeals",
        verbose_name=_("penalty appealed"),
    )
    incident = models.ForeignKey(
        Incident,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="appeals",
        verbose_name=_("incident appealed"),
    )
    subject = models.CharField(_("decision appealed"), max_length=300, validators=[validate_line])
    text = long_text(_("appeal text"), blank=True)
    filed_at = models.DateTimeField(_("filed at"), validators=[validate_calendar])
    deposit = models.DecimalField(
        _("deposit"), max_digits=12, decimal_places=2, default=0, validators=[MinValueValidator(0)]
    )
    late_override = models.CharField(
        _("reason for accepting it after the window"),
        max_length=300,
        blank=True,
        validators=[validate_line],
    )
    status = models.CharField(
        _("status"), max_length=15, choices=Status.choices, default=Status.FILED
    )
    decided_by = models.CharField(_("decided by"), max_length=30, choices=Body.choices, blank=True)
    decision = long_text(_("decision"), blank=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    # None until decided; returned in full when upheld, kept when rejected (002 §2.9.2).
    deposit_returned = models.BooleanField(_("deposit returned"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    history = HistoricalRecords(table_name="tournament_historicalappeal")

    class Meta:
        db_table = "tournament_appeal"
        ordering = ["-filed_at", "-pk"]
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")

    def __str__(self):
        return f"{self.appellant}: {self.subject}"

    @property
    def decided(self):
        return self.status in (self.Status.UPHELD, self.Status.REJECTED)
