"""Tables and seats of a session."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournament.models import Player, Session

WINDS = ["E", "S", "W", "N"]


class Wind(models.TextChoices):
    EAST = "E", _("East")
    SOUTH = "S", _("South")
    WEST = "W", _("West")
    NORTH = "N", _("North")


class Table(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="table_number_unique")
        ]

    def __str__(self):
        return _("Table %(number)s") % {"number": self.number}


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
