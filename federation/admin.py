from django.contrib import admin

from .models import Mirror, PublishingKey


@admin.register(PublishingKey)
class PublishingKeyAdmin(admin.ModelAdmin):
    list_display = ("pk", "kind", "slug", "label", "owner", "created_at", "revoked_at")
    list_filter = ("kind",)
    search_fields = ("slug", "label", "owner__username")
    readonly_fields = ("created_at", "last_used_at")


@admin.register(Mirror)
class MirrorAdmin(admin.ModelAdmin):
    list_display = ("kind", "slug", "revision", "changed_at", "heard_at", "received_at")
    list_filter = ("kind",)
    search_fields = ("slug",)
    readonly_fields = ("revision", "changed_at", "heard_at", "received_at")
