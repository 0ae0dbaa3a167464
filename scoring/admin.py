from django.contrib import admin

from scoring.models import Result, ResultScore
from tournament.admin import ReadOnlyAdmin


class ScoreInline(admin.TabularInline):
    model = ResultScore
    extra = 0
    can_delete = False
    readonly_fields = ("wind", "player", "score", "chombo")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    """Results are corrected at the desk, as a new version; the admin only shows them."""

    list_display = ("table", "version", "status", "entered_by", "entered_at", "confirmed_by")
    list_filter = ("status", "table__session__tournament")
    inlines = [ScoreInline]
