"""What a hall sends (issue 38; docs/features/federation.md): `receive` checks the key, the
signature and the revision, reads the file with the archive's own reader, and puts it in the
place of the mirrored tournament (or club rating) in one transaction. Every answer is
(status, JSON dict) and always says `have`, but for a key that is not one (401)."""

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.backups.restoring import replace_tournament
from archive.club_file import delete_club, restore_club
from archive.tournament_file import (
    TournamentFileError,
    create_tournament,
    parse,
    prepare_import,
    unpacked,
)
from archive.tournament_file.errors import show
from club.models import Member
from core import signed
from core.signed import MAX_REVISION, Answer
from people.models import Person, PersonChange
from tournament.changes import touch
from tournament.models import Tournament

from .keys import key_of, secret_of
from .models import Kind, Mirror, PublishingKey

# The user the mirror's rows are imported by: made once, cannot log in.
SYSTEM_USER = "federation"


def system_user():
    User = get_user_model()
    user, made = User._default_manager.get_or_create(
        username=SYSTEM_USER, defaults={"is_active": False}
    )
    if made:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _changed_at(text: str | None) -> datetime:
    try:
        moment = datetime.fromisoformat((text or "").strip())
    except ValueError:
        moment = None
    if moment is None or timezone.is_naive(moment):
        raise TournamentFileError(
            signed.CHANGED_AT,
            _("must be a time in ISO 8601 with its offset from UTC, not %(value)s")
            % {"value": show(text or "")},
        )
    return moment


def held(key: PublishingKey) -> int:
    """`have`: the newest revision this server holds from this key (0 if none). A mirror a
    new key takes over (the old one revoked) starts again from 0 for it."""
    mirror = Mirror.objects.filter(kind=key.kind, slug=key.slug, key=key).first()
    return mirror.revision if mirror else 0


def receive(*, key_id, kind, revision, signature, changed_at, body: bytes) -> Answer:
    """One request of a hall: a file (body) or a heartbeat (empty body)."""
    key = key_of(key_id)
    if key is None:
        return Answer(401, {"error": _("No such publishing key.")})
    number = signed.revision_number(revision)
    if number is None:
        problem = _("must be a whole number from 0 to %(most)d") % {"most": MAX_REVISION}
        return Answer(400, {"have": held(key), "error": f"{signed.REVISION}: {problem}"})
    if not signed.signed_by(secret_of(key), kind or "", number, body, signature):
        return Answer(401, {"error": _("The request is not signed by its key.")})
    now = timezone.now()
    if not key.live:
        return Answer(403, {"have": held(key), "error": _("This publishing key is revoked.")})
    if kind != key.kind:
        return Answer(
            403,
            {
                "have": held(key),
                "error": _("This key publishes a %(kind)s, not a %(other)s.")
                % {"kind": key.get_kind_display(), "other": kind},
            },
        )
    PublishingKey.objects.filter(pk=key.pk).update(last_used_at=now)
    # Heard: any signed request of the mirror's key, a heartbeat, a resend or a refused file.
    Mirror.objects.filter(kind=key.kind, slug=key.slug, key=key).update(heard_at=now)
    have = held(key)
    if not body:
        return Answer(200, {"have": have})  # a heartbeat
    refused = _against(have, number)
    if refused is not None:
        return refused
    try:
        moment = _changed_at(changed_at)
        data = parse(unpacked(body))
        if key.kind == Kind.TOURNAMENT:
            stored = _store_tournament(key, number, moment, data)
        else:
            stored = _store_club(key, number, moment, data)
    except TournamentFileError as e:
        return Answer(400, {"have": held(key), "error": str(e)})
    return stored


def _locked_mirror(key: PublishingKey) -> Mirror:
    """The key's mirror row, made if there is none, locked until the transaction ends: two
    files of one address are stored one after the other."""
    Mirror.objects.get_or_create(kind=key.kind, slug=key.slug)
    return Mirror.objects.select_for_update().get(kind=key.kind, slug=key.slug)


def _older(mirror: Mirror, key: PublishingKey, number: int) -> Answer | None:
    """Checked again under the lock: another request may have stored a newer file meanwhile."""
    return _against(mirror.revision if mirror.key_id == key.pk else 0, number)


def _against(have: int, number: int) -> Answer | None:
    """The answer to revision `number` when the server holds `have`: 409 for an older one, 200
    for the same one (already held: nothing is rewritten); None for a newer one, to store."""
    if number < have:
        return Answer(
            409,
            {
                "have": have,
                "error": _("Revision %(sent)d is older than the %(have)d this server holds.")
                % {"sent": number, "have": have},
            },
        )
    if number == have:
        return Answer(200, {"have": have})
    return None


def _stored(mirror: Mirror, key: PublishingKey, number: int, moment) -> Answer:
    now = timezone.now()
    mirror.key = key
    mirror.revision = number
    mirror.changed_at = moment
    mirror.heard_at = now
    mirror.received_at = now
    mirror.save()
    return Answer(200, {"have": number})


def _store_tournament(key, number, moment, data: dict) -> Answer:
    if isinstance(data.get("tournament"), dict):
        data["tournament"]["slug"] = key.slug  # a key publishes only what it names
    user = system_user()
    existing = Tournament.objects.filter(slug=key.slug).first()
    # Read and checked outside the transaction, which then only writes (archive's restore).
    ready = prepare_import(data, user=user, replacing=existing)
    with transaction.atomic():
        mirror = _locked_mirror(key)
        refused = _older(mirror, key, number)
        if refused is not None:
            return refused
        current = Tournament.objects.filter(slug=key.slug).first()
        if current is None:
            tournament = create_tournament(ready)
        else:
            tournament = replace_tournament(current, ready, user)
        answer = _stored(mirror, key, number, moment)
        touch(tournament.pk)
    return answer


def _delete_club(slug: str) -> None:
    """The club at `slug` and all its rows (archive.club_file.delete_club), then the people its
    members were, but for those something else still names (`_unnamed`): each file brings its
    people anew, and they would pile up with every file stored. (A hall's take-over keeps its
    people: they are its people registry's.)"""
    people = set(Member.objects.filter(club__slug=slug).values_list("person_id", flat=True))
    delete_club(slug)
    _unnamed(people).delete()


def _unnamed(pks):
    """The people of `pks` nothing names: no club's member (another mirror's, linked by its EMA
    id when its file was read), no tournament's player, no merge or split, no one merged into
    them."""
    changes = PersonChange.objects.all()
    return (
        Person.objects.filter(
            pk__in=pks, memberships__isnull=True, players__isnull=True, merged__isnull=True
        )
        .exclude(pk__in=changes.values("kept"))
        .exclude(pk__in=changes.values("other"))
    )


def _store_club(key, number, moment, data: dict) -> Answer:
    with transaction.atomic():
        mirror = _locked_mirror(key)
        refused = _older(mirror, key, number)
        if refused is not None:
            return refused
        # A club file is read as it is written (archive.club_file): the old rows go first,
        # and a refused file rolls the whole transaction back.
        _delete_club(key.slug)
        restore_club(data, slug=key.slug)  # touches the club
        answer = _stored(mirror, key, number, moment)
    return answer
