"""A standby desk (issue 38; docs/features/standby.md): a second laptop on the hall's network
that keeps the newest full state of the main desk, and takes over when the main desk dies.

- **Made on the standby** (`make_standby`): the laptop gets a pairing key `<id>.<secret>`; its
  director types it, with the standby's address, into the main desk's standby page
  (publishing.services.set_standby). From then on the main desk's `STANDBY_SENDER`
  (publishing.sender) sends every tournament's and club's full file and the desk's accounts
  (publishing.accounts) after every change, signed and sealed (core.signed).
- **Received** (`receive`, POST /api/standby/): checked (key, signature, seal, the file's own
  slug), and kept on disk as it came, fsynced before the answer (publishing.spool, under
  DATA_DIR/standby/<key id>/): a change the standby acknowledged survives its own crash. Nothing
  is read into the database until the take-over, so the standby answers in milliseconds whatever
  the event's size. Idempotent by revision, as the federation server: an older one is 409.
- **Take over** (`take_over`): every kept file is read, in one transaction, into this desk's
  database: the accounts (users with their passwords, groups), every tournament and club in the
  place of the one of its slug (archive's restore), who works on what, and where it is
  published; then the desk takes the main desk's secret, so the table links and the printed
  codes keep working, and everyone logs in again with the main desk's accounts. The standby then
  refuses the old main desk's stream (403): one desk at a time.
"""

import os
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.backups.restoring import replace_tournament
from archive.club_file import replace_club
from archive.tournament_file import (
    TournamentFileError,
    create_tournament,
    parse,
    prepare_import,
    unpacked,
)
from core import signed
from core.errors import ActionRefused
from core.signed import Answer
from tournament.changes import touch
from tournament.models import Tournament

from . import accounts, spool
from .models import Publication, Standby
from .sender import CLUB, DESK, DESK_SLUG, TOURNAMENT

KINDS = (TOURNAMENT, CLUB, DESK)
# A standby keeps whole events: a 2,000-player tournament's file unpacks to tens of megabytes.
UNPACKED_LIMIT = 200 * 1024 * 1024
TAKEN_SECRET = "taken_secret_key"  # config.settings reads it first

_lock = threading.Lock()  # one file of one standby stored at a time (the main sends one by one)


def waiting() -> Standby | None:
    """This laptop's standby that has not ended, or None."""
    return Standby.objects.filter(ended_at__isnull=True).order_by("-pk").first()


def folder(standby: Standby) -> Path:
    """Where the standby keeps what it received: a new pairing starts from nothing."""
    return Path(settings.DATA_DIR) / "standby" / standby.key_id


def sends_to_standby() -> bool:
    """Whether this desk sends its stream to a standby (it is a main desk)."""
    return Publication.objects.filter(
        target=Publication.Target.STANDBY, kind=DESK, enabled=True
    ).exists()


@transaction.atomic
def make_standby(user) -> Standby:
    """Make this laptop a standby desk: a new pairing key. Refused while it is one already, or
    while it sends to a standby itself."""
    if waiting() is not None:
        raise ActionRefused(_("This laptop is a standby already."))
    if sends_to_standby():
        raise ActionRefused(_("This desk sends its changes to a standby: switch that off first."))
    standby = Standby(
        key_id=secrets.token_hex(6),
        secret=secrets.token_urlsafe(32),
        created_at=timezone.now(),
        created_by=user,
    )
    standby._history_user = user
    standby.save()
    return standby


@transaction.atomic
def stop_standby(user) -> Standby:
    """Stop being a standby without taking over (the old main desk is then refused); what it
    received stays on disk."""
    standby = Standby.objects.select_for_update().filter(pk=getattr(waiting(), "pk", None)).first()
    if standby is None:
        raise ActionRefused(_("This laptop is not a standby."))
    standby.ended_at, standby.ended_by = timezone.now(), user
    standby._history_user = user
    standby.save()
    return standby


def _checked(kind: str, slug: str, data) -> None:
    """The file is the one its headers name; TournamentFileError (or ActionRefused for the
    accounts) otherwise."""
    if kind == DESK:
        accounts.check_accounts(data)
        return
    own = (data.get(kind) or {}).get("slug") if isinstance(data, dict) else None
    if own != slug:
        raise TournamentFileError(
            f"{kind}.slug", _("must be %(slug)s, the slug it is sent as") % {"slug": slug}
        )


def receive(key_id, kind, slug, revision, signature, changed_at, body: bytes, sender="") -> Answer:
    """One request of the main desk's stream: a file (or an empty heartbeat) of `kind` and
    `slug` at `revision`. Every answer says `have` (what the standby holds of it) but for a key
    that is not this standby's (401)."""
    standby = Standby.objects.filter(key_id=key_id or "").first()
    if standby is None:
        return Answer(401, {"error": _("No such standby key.")})
    number = signed.revision_number(revision)
    if kind not in KINDS or not slug or number is None:
        return Answer(400, {"error": _("The request does not name a file of the stream.")})
    if not signed.signed_by(
        standby.secret, signed.standby_kind(kind, slug), number, body, signature
    ):
        return Answer(401, {"error": _("The request is not signed by its key.")})
    where = folder(standby)
    with _lock:
        held = spool.read(kind, slug, where)
        have = held.revision if held else 0
        standby.refresh_from_db(fields=["ended_at"])  # a take-over may have ended it meanwhile
        if standby.ended_at is not None:
            return Answer(
                403, {"have": have, "error": _("This standby has stopped or taken over.")}
            )
        Standby.objects.filter(pk=standby.pk).update(
            heard_at=timezone.now(), heard_from=sender[:100]
        )
        if not body or number == have:
            return Answer(200, {"have": have})  # a heartbeat, or a file it holds already
        if number < have:
            return Answer(409, {"have": have, "error": _("A newer revision is here already.")})
        try:
            packed = signed.unseal(standby.secret, body)
            text = unpacked(packed, UNPACKED_LIMIT)
            _checked(kind, slug, parse(text))
        except ValueError:
            return Answer(400, {"have": have, "error": _("The file is not sealed with this key.")})
        except TournamentFileError as e:
            return Answer(400, {"have": have, "error": str(e)})
        except ActionRefused as e:
            return Answer(400, {"have": have, "error": str(e.message)})
        digest = spool.digest_of(text.decode("utf-8-sig"))
        spool.write(kind, slug, spool.Spooled(number, changed_at or "", digest, packed), where)
    return Answer(200, {"have": number})


@dataclass(frozen=True)
class Received:
    """One file the standby holds, for its page."""

    kind: str
    slug: str
    revision: int
    changed_at: datetime | None  # the main desk's time of the change it holds
    received_at: datetime
    size: int  # bytes, compressed


def received(standby: Standby) -> list[Received]:
    """What the standby holds: the accounts first, then tournaments and clubs by slug."""
    where = folder(standby)
    found = []
    for kind, slug in spool.spooled_keys(where):
        held = spool.read(kind, slug, where)
        if held is None:
            continue
        try:
            changed = datetime.fromisoformat(held.changed_at)
        except ValueError:
            changed = None
        meta = where / f"{kind}-{slug}.meta.json"
        moment = datetime.fromtimestamp(meta.stat().st_mtime, tz=timezone.get_current_timezone())
        found.append(Received(kind, slug, held.revision, changed, moment, len(held.body)))
    return sorted(found, key=lambda r: (r.kind != DESK, r.kind, r.slug))


@dataclass
class TakenOver:
    tournaments: list
    clubs: list
    users: int
    secret: bool  # the main desk's secret taken (the table links keep working)


def _files(standby: Standby) -> dict[tuple[str, str], dict]:
    where = folder(standby)
    files = {}
    for kind, slug in spool.spooled_keys(where):
        held = spool.read(kind, slug, where)
        if held is not None and kind in KINDS:
            files[(kind, slug)] = parse(unpacked(held.body, UNPACKED_LIMIT))
    return files


def take_over(user) -> TakenOver:
    """Make this standby the desk from the newest files it received (see the module's note).
    One transaction: a file that cannot be read refuses the whole take-over, naming it, and
    nothing changes. Under the lock of `receive`: a file the old main desk still sends meanwhile
    is either taken over or refused (403), never acknowledged and dropped."""
    with _lock:
        return _take_over(user)


def _take_over(user) -> TakenOver:
    standby = waiting()
    if standby is None:
        raise ActionRefused(_("This laptop is not a standby."))
    files = _files(standby)
    desk = files.pop((DESK, DESK_SLUG), None)
    if desk is not None:
        # Only what the main desk had at its last change: a tournament or club deleted or
        # renamed since its file came is not brought back.
        live = {(TOURNAMENT, s) for s in desk.get("tournaments", [])}
        live |= {(CLUB, s) for s in desk.get("clubs", [])}
        files = {key: data for key, data in files.items() if key in live}
    if not files:
        raise ActionRefused(_("Nothing has been received from the main desk yet."))
    done = TakenOver([], [], 0, False)
    with transaction.atomic():
        standby = Standby.objects.select_for_update().get(pk=standby.pk)
        if standby.ended_at is not None:
            raise ActionRefused(_("This standby has stopped or taken over."))
        made, restored = {}, []
        if desk is not None:
            accounts.apply_users(desk)
            made = accounts.apply_people(desk)
            done.users = len(desk["users"])
        for (kind, slug), data in sorted(files.items()):
            try:
                if kind == TOURNAMENT:
                    existing = Tournament.objects.filter(slug=slug).first()
                    ready = prepare_import(data, user=user, replacing=existing)
                    if existing is None:
                        tournament = create_tournament(ready)
                    else:
                        tournament = replace_tournament(existing, ready, user)
                    touch(tournament.pk)
                    done.tournaments.append(tournament.name)
                else:
                    club = replace_club(data, slug)
                    restored += club.created
                    done.clubs.append(club.club.name)
            except TournamentFileError as e:
                raise ActionRefused(
                    _("The file of %(what)s %(slug)s cannot be read: %(problem)s")
                    % {"what": Publication.Kind(kind).label, "slug": slug, "problem": e}
                ) from e
        if desk is not None:
            accounts.apply_links(desk, made, restored)
            accounts.apply_grants(desk)
            accounts.apply_publications(desk, user)
        standby.ended_at, standby.ended_by, standby.took_over = timezone.now(), user, True
        standby._history_user = user
        standby.save()
        if desk is not None:
            secret = desk["secret_key"]
            transaction.on_commit(lambda: take_secret(secret))
            done.secret = True
    return done


def take_secret(secret: str) -> None:
    """The desk's secret becomes `secret`, in this process and in the data folder's
    `taken_secret_key`, which config.settings reads first at every start (also over
    DESK_SECRET_KEY). Made whole under another name and renamed into place."""
    path = Path(settings.DATA_DIR) / TAKEN_SECRET
    making = path.with_name(f"secret_key.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        with open(os.open(making, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(secret)
        os.replace(making, path)
    finally:
        making.unlink(missing_ok=True)
    settings.SECRET_KEY = secret
