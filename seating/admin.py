from django.contrib import admin

from seating.models import Seat, Table
from seating.services import removal_refused
from tournament.admin import TouchingAdmin


class PlayedLocked:
    """Seating of a played table (seating.services.removal_refused) changes only by an explicit
    desk action, not here."""

    def table_of(self, obj):
        return obj

    def _played(self, obj):
        return obj is not None and removal_refused(self.table_of(obj)) is not None

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and not self._played(obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and not self._played(obj)


@admin.register(Table)
class TableAdmin(PlayedLocked, TouchingAdmin):
    list_display = ("session", "number")
    list_filter = ("session__tournament",)

    def tournament_id_of(self, obj):
        return obj.session.tournament_id


@admin.register(Seat)
class SeatAdmin(PlayedLocked, TouchingAdmin):
    list_display = ("table", "wind", "player", "replaces", "joined")
    list_filter = ("session__tournament",)

    def table_of(self, obj):
        return obj.table

    def tournament_id_of(self, obj):
        return obj.session.tournament_id
