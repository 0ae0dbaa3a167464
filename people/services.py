"""Every write to people: one function per action, in a transaction, who and when kept.

A merge and a split move the links to a person that the rooms above own (a tournament's
players, a club's members) through the person's reverse relations (`LINKS`): this room owns
the person and its history of merges, and imports none of the rooms that link to it."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ActionRefused
from people.changes import merge_asked, people_changed
from people.models import NAMED_FIELDS, Person, PersonChange

# The links a merge moves, by their key in PersonChange.moved: the key -> the reverse relation
# of Person that holds them (tournament.Player.person, club.Member.person).
LINKS = {"players": "players", "members": "memberships"}


def refusal_of(error: ValidationError) -> ActionRefused:
    """A model validation error as the refusal a page shows: the first field and its message."""
    for field, messages in error.message_dict.items():
        label = Person._meta.get_field(field).verbose_name if field in NAMED_FIELDS else ""
        message = messages[0]
        return ActionRefused(f"{label}: {message}" if label else message, field=field)
    return ActionRefused(" ".join(error.messages))


def _save(person: Person, user) -> Person:
    try:
        person.full_clean(exclude=["merged_into"])
    except ValidationError as e:
        raise refusal_of(e) from e
    person._history_user = user  # who, also when no request is around (a command)
    person.save()
    return person


@transaction.atomic
def create_person(data: dict, user) -> Person:
    """A new person from the name fields in `data` (people.models.NAMED_FIELDS)."""
    person = Person(**{name: data.get(name) or "" for name in NAMED_FIELDS})
    return _save(person, user)


@transaction.atomic
def update_person(person: Person, data: dict, user) -> Person:
    person = Person.objects.select_for_update().get(pk=person.pk)
    if person.merged_into_id:
        raise ActionRefused(
            _("%(name)s was merged into %(kept)s: change that person instead.")
            % {"name": person.name, "kept": person.merged_into.name}
        )
    for name in NAMED_FIELDS:
        if name in data:
            setattr(person, name, data[name] or "")
    person = _save(person, user)
    people_changed.send(sender=Person, person_ids=[person.pk])
    return person


def _checked_reason(reason: str) -> str:
    """A merge's or a split's reason, as the model checks it (one line, its length)."""
    field = PersonChange._meta.get_field("reason")
    try:
        return field.clean(reason or "", None)
    except ValidationError as e:
        raise ActionRefused(f"{field.verbose_name}: {e.messages[0]}", field="reason") from e


def _locked(*pks) -> dict[int, Person]:
    return {p.pk: p for p in Person.objects.select_for_update().filter(pk__in=pks)}


def _move(rows, person, user) -> list[int]:
    """Point each row (a player, a member) at `person`, one by one so each keeps a history
    row saying who moved it."""
    moved = []
    for row in rows:
        row.person = person
        row._history_user = user
        row.save(update_fields=["person"])
        moved.append(row.pk)
    return moved


@transaction.atomic
def merge_people(kept: Person, other: Person, user, reason: str = "") -> PersonChange:
    """Merge `other` into `kept`: every player and membership of `other` becomes `kept`'s;
    `other` stays, pointing at `kept` (merged_into), so that split_people can undo it. Refused
    when a room linking to people cannot take the two as one (merge_asked: a club game where
    both sat would seat one person twice)."""
    if kept.pk == other.pk:
        raise ActionRefused(_("A person cannot be merged with themselves."), field="other")
    people = _locked(kept.pk, other.pk)
    kept, other = people[kept.pk], people[other.pk]
    for person, field in ((kept, "kept"), (other, "other")):
        if person.merged_into_id:
            raise ActionRefused(
                _("%(name)s was already merged into another person.") % {"name": person.name},
                field=field,
            )
    merge_asked.send(sender=Person, kept=kept, other=other)
    change = PersonChange(
        kind=PersonChange.Kind.MERGE,
        kept=kept,
        other=other,
        reason=_checked_reason(reason),
        by=user,
    )
    change.moved = {
        key: _move(getattr(other, relation).all(), kept, user) for key, relation in LINKS.items()
    }
    change.at = timezone.now()
    change.save()
    other.merged_into = kept
    other._history_user = user
    other.save(update_fields=["merged_into"])
    people_changed.send(sender=Person, person_ids=[kept.pk, other.pk])
    return change


@transaction.atomic
def split_people(change: PersonChange, user, reason: str = "") -> PersonChange:
    """Undo a merge: the links it moved go back to the other person, who is no longer merged.
    Refused while a later merge holds them (split that one first)."""
    change = PersonChange.objects.select_for_update().get(pk=change.pk)
    if change.kind != PersonChange.Kind.MERGE:
        raise ActionRefused(_("Only a merge can be split."))
    if PersonChange.objects.filter(undoes=change).exists():
        raise ActionRefused(_("This merge was already split."))
    people = _locked(change.kept_id, change.other_id)
    kept, other = people[change.kept_id], people[change.other_id]
    # Merges are split in the reverse order: once the kept person was merged on, or a link
    # this merge moved went on elsewhere, splitting this one first would part the wrong links.
    moved_on = kept.merged_into_id is not None or any(
        getattr(kept, relation).filter(pk__in=change.moved.get(key, [])).count()
        != len(change.moved.get(key, []))
        for key, relation in LINKS.items()
    )
    if moved_on:
        raise ActionRefused(
            _(
                "%(name)s was merged again since, or a link this merge moved has moved on: "
                "split the later merge first."
            )
            % {"name": kept.name}
        )
    split = PersonChange(
        kind=PersonChange.Kind.SPLIT,
        kept=kept,
        other=other,
        undoes=change,
        reason=_checked_reason(reason),
        by=user,
    )
    split.moved = {
        key: _move(getattr(kept, relation).filter(pk__in=change.moved.get(key, [])), other, user)
        for key, relation in LINKS.items()
    }
    split.at = timezone.now()
    split.save()
    other.merged_into = None
    other._history_user = user
    other.save(update_fields=["merged_into"])
    people_changed.send(sender=Person, person_ids=[kept.pk, other.pk])
    return split
