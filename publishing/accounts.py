"""The desk's accounts file: what a standby desk needs besides the tournaments' and clubs' files
to be the desk when it takes over (publishing.standby). It crosses the network only sealed
(core.signed.seal); on either laptop's disk it is kept like the database and the secret key,
readable by the desk's user alone (publishing.spool):

    {"format": "mahjong-desk-accounts", "version": 1,
     "secret_key": the desk's secret (seating.codes: the table links and codes are keyed by it),
     "users": [{"username", "password" (the hash), "first_name", "last_name", "email",
                "is_active", "is_staff", "is_superuser", "groups": [names]}],
     "staff_grants": [{"tournament": slug, "user", "role", "granted_by"}],
     "officer_grants": [{"club": slug, "user", "granted_by"}],
     "publications": [{"kind", "slug", "url", "key", "enabled"}],   (to federation servers)
     "tournaments": [slugs], "clubs": [slugs],   (what the desk has now: one deleted or
                                                  renamed since is not taken over)
     "people": [{"id", the named fields, "merged_into": id or null}],   (the people registry)
     "player_people": [{"tournament": slug, "player": key, "person": id}],
     "member_people": {club slug: [person id of each member, in the club file's order]}}

Sorted, so that the same accounts are the same text (the sender sends a new revision only when
the text changes)."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils.translation import gettext as _

from club.models import Club, Member, OfficerGrant
from core.errors import ActionRefused
from core.roles import TOURNAMENT_ROLES
from people.models import NAMED_FIELDS, Person
from tournament.models import Player, StaffGrant, Tournament

from .models import Publication

FORMAT, VERSION = "mahjong-desk-accounts", 1
USER_FIELDS = (
    "password",
    "first_name",
    "last_name",
    "email",
    "is_active",
    "is_staff",
    "is_superuser",
)


PUBLICATION_FIELDS = ("kind", "slug", "url", "key", "enabled")


def _name(user) -> str | None:
    return user.username if user is not None else None


def export_accounts() -> dict:
    """The desk's accounts and secret as the standby keeps them."""
    users = get_user_model().objects.prefetch_related("groups").order_by("username")
    staff = StaffGrant.objects.select_related("user", "tournament", "granted_by")
    officers = OfficerGrant.objects.select_related("user", "club", "granted_by")
    return {
        "format": FORMAT,
        "version": VERSION,
        "secret_key": settings.SECRET_KEY,
        "users": [
            {
                "username": user.username,
                **{name: getattr(user, name) for name in USER_FIELDS},
                "groups": sorted(group.name for group in user.groups.all()),
            }
            for user in users
        ],
        "staff_grants": sorted(
            (
                {
                    "tournament": grant.tournament.slug,
                    "user": grant.user.username,
                    "role": grant.role,
                    "granted_by": _name(grant.granted_by),
                }
                for grant in staff
            ),
            key=lambda g: (g["tournament"], g["user"], g["role"]),
        ),
        "officer_grants": sorted(
            (
                {
                    "club": grant.club.slug,
                    "user": grant.user.username,
                    "granted_by": _name(grant.granted_by),
                }
                for grant in officers
            ),
            key=lambda g: (g["club"], g["user"]),
        ),
        "publications": [
            {name: getattr(p, name) for name in PUBLICATION_FIELDS}
            for p in Publication.objects.filter(target=Publication.Target.FEDERATION).order_by(
                "kind", "slug"
            )
        ],
        "tournaments": sorted(Tournament.objects.values_list("slug", flat=True)),
        "clubs": sorted(Club.objects.values_list("slug", flat=True)),
        "people": [
            {"id": person.pk}
            | {name: getattr(person, name) for name in NAMED_FIELDS}
            | {"merged_into": person.merged_into_id}
            for person in Person.objects.order_by("pk")
        ],
        "player_people": [
            {"tournament": slug, "player": key, "person": person}
            for slug, key, person in Player.objects.filter(person__isnull=False)
            .order_by("tournament__slug", "key")
            .values_list("tournament__slug", "key", "person_id")
        ],
        "member_people": _member_people(),
    }


def _member_people() -> dict:
    """club slug -> the person of each member, in the club file's order (archive.club_file:
    by pk)."""
    found = {}
    for slug, person in Member.objects.order_by("club__slug", "pk").values_list(
        "club__slug", "person_id"
    ):
        found.setdefault(slug, []).append(person)
    return found


def _refuse(path: str, problem: str):
    raise ActionRefused(
        _("The accounts file: %(path)s %(problem)s") % {"path": path, "problem": problem}
    )


def check_accounts(data) -> None:
    """Refuse a file that is not the accounts file, naming the first wrong value's path."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        _refuse("format", _("is not %(format)s") % {"format": FORMAT})
    if data.get("version") != VERSION:
        _refuse("version", _("must be %(version)s") % {"version": VERSION})
    if not isinstance(data.get("secret_key"), str) or len(data["secret_key"]) < 32:
        _refuse("secret_key", _("must be the desk's secret (32 characters or more)"))
    for name in ("users", "staff_grants", "officer_grants", "publications", "people"):
        if not isinstance(data.get(name), list) or not all(
            isinstance(item, dict) for item in data[name]
        ):
            _refuse(name, _("must be a list of objects"))
    for index, user in enumerate(data["users"]):
        if not isinstance(user.get("username"), str) or not user["username"]:
            _refuse(f"users[{index}].username", _("must be a user name"))
        if not isinstance(user.get("groups"), list):
            _refuse(f"users[{index}].groups", _("must be a list of group names"))


def apply_users(data: dict) -> None:
    """Inside the caller's transaction: every user of the file as it is there (the password's
    hash too), made when missing; users only this laptop has are left as they are."""
    check_accounts(data)
    User = get_user_model()
    groups = {group.name: group for group in Group.objects.all()}
    for item in data["users"]:
        user = User.objects.filter(username=item["username"]).first() or User(
            username=item["username"]
        )
        for name in USER_FIELDS:
            if name in item:
                setattr(user, name, item[name])
        user.save()
        names = [str(name) for name in item["groups"]]
        for name in names:
            if name not in groups:
                groups[name] = Group.objects.get_or_create(name=name)[0]
        user.groups.set([groups[name] for name in names])


def apply_grants(data: dict) -> None:
    """Inside the caller's transaction, after the tournaments and clubs: who works on which
    tournament and club, as on the main desk (a grant of a tournament or user this desk does
    not have is left out)."""
    users = {user.username: user for user in get_user_model().objects.all()}
    tournaments = {t.slug: t for t in Tournament.objects.all()}
    clubs = {c.slug: c for c in Club.objects.all()}
    for item in data["staff_grants"]:
        user, tournament = users.get(item.get("user")), tournaments.get(item.get("tournament"))
        if user is not None and tournament is not None and item.get("role") in TOURNAMENT_ROLES:
            StaffGrant.objects.get_or_create(
                user=user,
                tournament=tournament,
                role=item.get("role"),
                defaults={"granted_by": users.get(item.get("granted_by"))},
            )
    for item in data["officer_grants"]:
        user, club = users.get(item.get("user")), clubs.get(item.get("club"))
        if user is not None and club is not None:
            OfficerGrant.objects.get_or_create(
                user=user, club=club, defaults={"granted_by": users.get(item.get("granted_by"))}
            )


def apply_publications(data: dict, by) -> None:
    """Inside the caller's transaction: where the main desk published each tournament and club,
    so that the new desk goes on publishing (its sender moves its revision above the server's:
    publishing.sender). A publication this desk has is set to the main desk's."""
    for item in data["publications"]:
        if item.get("kind") not in (Publication.Kind.TOURNAMENT, Publication.Kind.CLUB):
            continue
        publication, _made = Publication.objects.get_or_create(
            target=Publication.Target.FEDERATION,
            kind=item["kind"],
            slug=str(item.get("slug")),
            defaults={"url": "", "key": ""},
        )
        for name in ("url", "key", "enabled"):
            setattr(publication, name, item.get(name, getattr(publication, name)))
        publication._history_user = by
        publication.save()


def apply_people(data: dict) -> dict:
    """Inside the caller's transaction, before the tournaments and clubs: the main desk's people
    registry made here (new people: this laptop's own are left as they are). Returns the file's
    person id -> the Person made."""
    made = {}
    for item in data.get("people", []):
        made[item["id"]] = Person.objects.create(
            **{name: item.get(name) or "" for name in NAMED_FIELDS}
        )
    for item in data.get("people", []):
        if item.get("merged_into") in made:
            Person.objects.filter(pk=made[item["id"]].pk).update(
                merged_into=made[item["merged_into"]]
            )
    return made


def apply_links(data: dict, made: dict, restored: list) -> None:
    """Inside the caller's transaction, after the tournaments and clubs: each player and club
    member linked to their person of the registry (`made`, apply_people's), and the people the
    club files' restores made for their members (`restored`) deleted where nothing names them
    now."""
    for item in data.get("player_people", []):
        person = made.get(item.get("person"))
        if person is not None:
            Player.objects.filter(
                tournament__slug=item.get("tournament"), key=item.get("player")
            ).update(person=person)
    for slug, people in (data.get("member_people") or {}).items():
        members = list(Member.objects.filter(club__slug=slug).order_by("pk"))
        if len(members) != len(people):
            continue  # not the file this list was made with: the restore's own links stand
        for member, person in zip(members, people, strict=True):
            if person in made:
                Member.objects.filter(pk=member.pk).update(person=made[person])
    Person.objects.filter(
        pk__in=[person.pk for person in restored], memberships__isnull=True, players__isnull=True
    ).delete()
