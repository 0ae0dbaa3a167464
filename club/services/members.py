"""A club's members: a person made a member (a former member comes back as the same membership),
and a member who left."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.changes import touch_club
from club.models import Club, Member
from core.errors import ActionRefused
from people.models import Person
from people.services import create_person

from .checks import checked


@transaction.atomic
def add_member(club: Club, person: Person, user, joined_on=None) -> Member:
    """Make a person a member. A person is a member of a club once; a former member comes back
    as the same membership."""
    if person.merged_into_id:
        raise ActionRefused(
            _("%(name)s was merged into another person.") % {"name": person.name},
            field="person",
        )
    existing = Member.objects.filter(club=club, person=person).first()
    if existing and existing.active:
        raise ActionRefused(
            _("%(name)s is already a member.") % {"name": person.name}, field="person"
        )
    if existing:
        existing.active = True
        existing.save(update_fields=["active"])
        touch_club(club.pk)
        return existing
    member = Member(
        club=club, person=person, joined_on=joined_on or timezone.localdate(), active=True
    )
    checked(member, exclude=["club", "person"])
    member.save()
    touch_club(club.pk)
    return member


@transaction.atomic
def add_new_member(club: Club, data: dict, user, joined_on=None) -> Member:
    """A person new to the desk (name, country, club, EMA id), made a member at once: both or
    neither are stored."""
    return add_member(club, create_person(data, user), user, joined_on=joined_on)


@transaction.atomic
def set_member_active(member: Member, active: bool, user) -> Member:
    """A member who left is kept with their games, listed apart."""
    member.active = active
    member.save(update_fields=["active"])
    touch_club(member.club_id)
    return member
