from django.contrib import admin

from scoring.models import Hand, HandConfirmation, Result, ResultScore
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
    # The table first, as before the fields were shared (core.entries.Entry comes first).
    fields = (
        "table",
        "version",
        "status",
        "entered_by",
        "entered_at",
        "confirmed_by",
        "confirmed_at",
        "superseded_at",
        "note",
    )
    list_filter = ("status", "table__session__tournament")
    inlines = [ScoreInline]


class ConfirmationInline(admin.TabularInline):
    model = HandConfirmation
    extra = 0
    can_delete = False
    readonly_fields = ("wind", "via", "device", "confirmed_by", "confirmed_at")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    """Hands are recorded at the table and corrected as a new version; the admin only shows
    them, superseded ones too."""

    list_display = ("table", "number", "version", "recorded_by", "recorded_at", "superseded_at")
    list_filter = ("table__session__tournament",)
    inlines = [ConfirmationInline]
