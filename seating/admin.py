from django.contrib import admin

from tournament.admin import TouchingAdmin

from .models import Seat, Table


@admin.register(Table)
class TableAdmin(TouchingAdmin):
    list_display = ("session", "number")
    list_filter = ("session__tournament",)

    def tournament_id_of(self, obj):
        return obj.session.tournament_id


@admin.register(Seat)
class SeatAdmin(TouchingAdmin):
    list_display = ("table", "wind", "player", "replaces", "joined")
    list_filter = ("session__tournament",)

    def tournament_id_of(self, obj):
        return obj.session.tournament_id
