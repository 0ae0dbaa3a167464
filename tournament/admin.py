"""The admin, for the director: users and groups, and a look at every row with its history.

Results and rule changes are read-only here: they change only through the desk's own actions,
which keep every version. Edits made here still refresh the public pages.
"""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournament.changes import touch
from tournament.models import Player, RuleChange, Session, Tournament


class TouchingAdmin(SimpleHistoryAdmin):
    def tournament_id_of(self, obj):
        return obj.tournament_id

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        touch(self.tournament_id_of(obj))

    def delete_model(self, request, obj):
        tournament_id = self.tournament_id_of(obj)
        super().delete_model(request, obj)
        touch(tournament_id)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(TouchingAdmin):
    list_display = ("name", "slug", "ruleset", "start_date", "venue")
    search_fields = ("name", "slug")

    def get_readonly_fields(self, request, obj=None):
        # Rules change on the desk's Rules page, where the freeze and the audit live.
        return ("ruleset", "rules", "revision") if obj else ("revision",)

    def tournament_id_of(self, obj):
        return obj.pk


@admin.register(Player)
class PlayerAdmin(TouchingAdmin):
    list_display = ("name", "tournament", "key", "ema_id", "country", "club", "status")
    list_filter = ("tournament", "status", "substitute")
    search_fields = ("name", "ema_id", "key")


@admin.register(Session)
class SessionAdmin(TouchingAdmin):
    list_display = ("tournament", "number", "method", "seed")
    list_filter = ("tournament",)


@admin.register(RuleChange)
class RuleChangeAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "changed_at", "changed_by", "old_ruleset", "new_ruleset")
