"""What a club rating does when something it shows changes elsewhere."""

from club.changes import touch_club
from club.models import Member


def people_changed(sender, person_ids, **kwargs):
    """A person's name, or a merge or split: the clubs they are members of show it anew."""
    clubs = Member.objects.filter(person_id__in=person_ids).values_list("club_id", flat=True)
    for club_id in set(clubs):
        touch_club(club_id)
