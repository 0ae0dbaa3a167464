"""Issue 34: roles are given per tournament. So that an upgraded laptop keeps working, every user
already in the desk, referee or head referee group is given that role on every tournament there
is (with a history row saying so); tournaments created from now on need their grants given."""

from django.db import migrations
from django.utils import timezone

ROLES = ("desk", "referee", "head referee")
REASON = "issue 34: given on upgrade to every existing tournament"


def grant_existing(apps, schema_editor):
    User = apps.get_model("auth", "User")
    Tournament = apps.get_model("tournament", "Tournament")
    StaffGrant = apps.get_model("tournament", "StaffGrant")
    History = apps.get_model("tournament", "HistoricalStaffGrant")
    now = timezone.now()
    tournaments = list(Tournament.objects.order_by("pk").values_list("pk", flat=True))
    for role in ROLES:
        for user in User.objects.filter(groups__name=role).order_by("pk"):
            for tournament in tournaments:
                grant, created = StaffGrant.objects.get_or_create(
                    user_id=user.pk, tournament_id=tournament, role=role
                )
                if created:
                    History.objects.create(
                        id=grant.pk,
                        user_id=user.pk,
                        tournament_id=tournament,
                        role=role,
                        granted_by=None,
                        granted_at=grant.granted_at,
                        history_date=now,
                        history_type="+",
                        history_change_reason=REASON,
                    )


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("tournament", "0020_staff_grant"),
    ]

    operations = [migrations.RunPython(grant_existing, migrations.RunPython.noop)]
