"""Issue 34: club officers are given their clubs. So that an upgraded laptop keeps working, every
user already in the club officer group is given every club rating there is (with a history row
saying so); club ratings created from now on are given to their officers one by one."""

from django.db import migrations
from django.utils import timezone

REASON = "issue 34: given on upgrade to every existing club rating"


def grant_existing(apps, schema_editor):
    User = apps.get_model("auth", "User")
    Club = apps.get_model("club", "Club")
    OfficerGrant = apps.get_model("club", "OfficerGrant")
    History = apps.get_model("club", "HistoricalOfficerGrant")
    now = timezone.now()
    clubs = list(Club.objects.order_by("pk").values_list("pk", flat=True))
    for user in User.objects.filter(groups__name="club officer").order_by("pk"):
        for club in clubs:
            grant, created = OfficerGrant.objects.get_or_create(user_id=user.pk, club_id=club)
            if created:
                History.objects.create(
                    id=grant.pk,
                    user_id=user.pk,
                    club_id=club,
                    granted_by=None,
                    granted_at=grant.granted_at,
                    history_date=now,
                    history_type="+",
                    history_change_reason=REASON,
                )


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("club", "0002_officer_grant"),
    ]

    operations = [migrations.RunPython(grant_existing, migrations.RunPython.noop)]
