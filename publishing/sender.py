"""The sender: after every committed change of a published tournament or club rating, the newest
public file (publishing.public_file) goes to its federation server, in the background.

Its shape is archive.backups.writer's: the receivers of `tournament_changed` and `club_changed`
act once the change commits (once per transaction), one thread does the work, and changes that
arrive while it works are coalesced, at most one waiting build per publication. For each enabled
Publication the thread

- reads one consistent snapshot without holding the desk's writers (`snapshot`: a deferred
  transaction on SQLite's WAL, REPEATABLE READ on PostgreSQL; never select_for_update) and builds
  the public file; when it differs from the one last spooled, the publication's `revision` grows
  by one and the file is spooled (publishing.spool: on disk, renamed into place);
- sends it (`POST <url>/api/publish/`, the headers of core.signed, gzip, a 10 s timeout) and
  keeps the server's `have` as `sent_revision`;
- on no answer or a server error keeps the file and tries again after 1, 2, 4 … 30 s; a newer
  change replaces what waits (the whole file of the newest state is sent, never a diff);
- on 409 whose `have` is above ours (the hall's database was restored, say), moves its revision
  above the server's and sends again; on 400, 401 or 403 stops sending that revision and shows
  why (a new change, a new setting or "Send now" tries again);
- says it is there every 60 s with a heartbeat (no body, the same headers); a server that holds
  less than the newest revision then gets the newest file.

The thread starts with the first change or the first request to the server (`start`), and first
sends whatever was spooled and not acknowledged before the desk stopped (`resume`). With
`settings.PUBLISH_THREAD = False` (the tests) the work is done inline once the change commits.
Nothing here ever raises into the desk's request: a failure is kept on the Publication for its
page.

The standby desk's stream (publishing.standby) is the same work with another sender of its own
(`STANDBY_SENDER`, its own thread: a federation server behind a slow or dead link never delays
it): its publications are every tournament's and club's full file (archive) and the desk's
accounts (publishing.accounts), sealed as well as signed (core.signed.seal), to the standby's
/api/standby/, spooled under DATA_DIR/publishing/standby/.
"""

import json
import logging
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from django.conf import settings
from django.db import close_old_connections, connections
from django.db.models import Subquery
from django.utils import timezone
from django.utils.translation import gettext_noop

from archive.club_file import export_club
from archive.tournament_file import dumps, export_tournament
from club.models import Club
from core import signed
from core.commits import once_on_commit
from core.snapshot import snapshot
from tournament.models import Tournament

from . import accounts, spool
from .models import Publication
from .public_file import public_club_file, public_tournament_file

log = logging.getLogger(__name__)

TOURNAMENT, CLUB = Publication.Kind.TOURNAMENT.value, Publication.Kind.CLUB.value
DESK = Publication.Kind.DESK.value
FEDERATION, STANDBY = Publication.Target.FEDERATION.value, Publication.Target.STANDBY.value
DESK_SLUG = "desk"  # the slug of the standby's one accounts publication
TIMEOUT = 10  # seconds a request may take
HEARTBEAT = 60  # seconds between heartbeats while all is well
BACKOFF_MAX = 30  # the longest wait between two tries
RESENDS = 3  # 409s answered in one go (a restored hall jumping its revision)

# What the page says of a failure (Publication.last_error keeps the message and its values;
# Publication.error_text translates them).
REFUSED_KEY = gettext_noop("The federation server refused the key: %(reason)s")
REFUSED_FILE = gettext_noop("The federation server refused the file: %(reason)s")
NO_ANSWER = gettext_noop("No answer from %(host)s: %(reason)s")
ANSWERED = gettext_noop("The federation server answered %(status)s: %(reason)s")
NOT_BUILT = gettext_noop("The public file could not be made: %(reason)s")
# The same to a standby desk (publishing.standby).
STANDBY_SAYS = {
    REFUSED_KEY: gettext_noop("The standby refused the key: %(reason)s"),
    REFUSED_FILE: gettext_noop("The standby refused the file: %(reason)s"),
    ANSWERED: gettext_noop("The standby answered %(status)s: %(reason)s"),
    NOT_BUILT: gettext_noop("The file could not be made: %(reason)s"),
}


def threaded() -> bool:
    return getattr(settings, "PUBLISH_THREAD", True)


def public_text(kind: str, slug: str) -> str | None:
    """The public file's JSON text (archive.tournament_file.dumps) of the tournament or club
    `slug` as one snapshot, or None when there is none by that slug."""
    with snapshot():
        if kind == CLUB:
            club = Club.objects.filter(slug=slug).first()
            return dumps(public_club_file(club)) if club else None
        tournament = Tournament.objects.filter(slug=slug).first()
        return dumps(public_tournament_file(tournament)) if tournament else None


def full_text(kind: str, slug: str) -> str | None:
    """The full file's JSON text for the standby: the tournament file or the club's
    (archive), or the desk's accounts (publishing.accounts), as one snapshot; None when there
    is none by that slug."""
    with snapshot():
        if kind == DESK:
            return dumps(accounts.export_accounts())
        if kind == CLUB:
            club = Club.objects.filter(slug=slug).first()
            return dumps(export_club(club)) if club else None
        tournament = Tournament.objects.filter(slug=slug).first()
        return dumps(export_tournament(tournament)) if tournament else None


def _error(message: str, **params) -> str:
    return json.dumps({"message": message, "params": {k: str(v) for k, v in params.items()}})


@dataclass
class Job:
    """What the sender knows of one publication in this process."""

    build: bool = False  # a change (or a new setting) to build the public file from
    due: float = 0.0  # time.monotonic() when the next try or heartbeat is due
    delay: float = 0.0  # the wait after the last failure (0: none failing)
    stopped: int | None = None  # a revision the server refused for good (400, 401, 403)


class Sender:
    """One sender per process and target (`SENDER`, `STANDBY_SENDER`); the tests make others
    (a restart)."""

    def __init__(self, target: str = FEDERATION):
        self.target = target
        self.jobs: dict[tuple[str, str], Job] = {}  # (kind, slug) -> Job
        self.changed_ids: set[tuple[str, int]] = set()  # (kind, pk) changed since the last look
        self.cond = threading.Condition()
        self.thread: threading.Thread | None = None
        self.resumed = False
        self.stopping = False

    # --- what the desk calls (after its commits)

    def changed(self, kind: str, pk: int) -> None:
        with self.cond:
            self.changed_ids.add((kind, pk))
            self.cond.notify()
        self._go()

    def publication_changed(self, kind: str, slug: str) -> None:
        """A new setting or "Send now": build and send at once, whatever failed before."""
        with self.cond:
            self.jobs[(kind, slug)] = Job(build=True)
            self.cond.notify()
        self._go()

    def _go(self) -> None:
        if threaded():
            self.start()
            return
        try:
            self.run_pending()
        except Exception:
            log.exception("Publishing failed")

    # --- the work

    def resume(self) -> None:
        """On start: every enabled publication sends what waits on disk, or builds its file."""
        self.resumed = True
        enabled = Publication.objects.filter(target=self.target, enabled=True)
        for kind, slug in enabled.values_list("kind", "slug"):
            with self.cond:
                job = self.jobs.setdefault((kind, slug), Job())
                job.due = 0.0

    def _error(self, message: str, **params) -> str:
        """The failure as kept for the page, in this sender's words (a standby's own)."""
        if self.target == STANDBY:
            message = STANDBY_SAYS.get(message, message)
        return _error(message, **params)

    def folder(self):
        """Where this sender spools (publishing.spool): the federation server's folder, or the
        standby's beside it."""
        return spool.folder() / STANDBY if self.target == STANDBY else None

    def text(self, kind: str, slug: str) -> str | None:
        return full_text(kind, slug) if self.target == STANDBY else public_text(kind, slug)

    def _resolve_changes(self) -> None:
        with self.cond:
            changed, self.changed_ids = self.changed_ids, set()
        if self.target == STANDBY and changed:
            if not self._standby_rows(changed):
                return
        for kind, model in ((TOURNAMENT, Tournament), (CLUB, Club)):
            ids = [pk for k, pk in changed if k == kind]
            if not ids:
                continue
            slugs = Publication.objects.filter(
                target=self.target,
                kind=kind,
                enabled=True,
                slug__in=Subquery(model.objects.filter(pk__in=ids).values("slug")),
            ).values_list("slug", flat=True)
            for slug in slugs:
                with self.cond:
                    self.jobs.setdefault((kind, slug), Job()).build = True

    def _standby_rows(self, changed) -> bool:
        """The standby's publications of what changed, made when missing (a tournament or club
        new since the pairing) with the pairing's address and key; the accounts are built
        again with every change (they are small, and a file that did not change is no new
        revision). False when no standby is paired and on."""
        paired = Publication.objects.filter(target=STANDBY, kind=DESK, enabled=True).first()
        if paired is None:
            return False
        for kind, model in ((TOURNAMENT, Tournament), (CLUB, Club)):
            ids = [pk for k, pk in changed if k == kind]
            have = Publication.objects.filter(target=STANDBY, kind=kind).values("slug")
            for slug in (
                model.objects.filter(pk__in=ids)
                .exclude(slug__in=have)
                .values_list("slug", flat=True)
            ):
                Publication.objects.get_or_create(
                    target=STANDBY,
                    kind=kind,
                    slug=slug,
                    defaults={"url": paired.url, "key": paired.key, "enabled": True},
                )
        with self.cond:
            self.jobs.setdefault((DESK, DESK_SLUG), Job()).build = True
        return True

    def run_pending(self, now: float | None = None) -> int:
        """Do every job due at `now` (time.monotonic(); the tests pass a later one), once.
        Returns how many were done."""
        now = time.monotonic() if now is None else now
        self._resolve_changes()
        with self.cond:
            due = [key for key, job in self.jobs.items() if job.build or job.due <= now]
        for key in due:
            try:
                self.process(key, now)
            except Exception:  # the database away a moment: this one waits, the others go on
                log.exception("Publishing %s %s failed", *key)
                with self.cond:
                    job = self.jobs.get(key)
                    if job is not None:
                        job.delay = min(BACKOFF_MAX, job.delay * 2) if job.delay else 1.0
                        job.due = now + job.delay
        return len(due)

    def process(self, key: tuple[str, str], now: float) -> None:
        kind, slug = key
        with self.cond:
            job = self.jobs.setdefault(key, Job())
            build, job.build = job.build, False
        publication = Publication.objects.filter(target=self.target, kind=kind, slug=slug).first()
        if publication is None or not publication.enabled:
            with self.cond:
                self.jobs.pop(key, None)
            return
        spooled = spool.read(kind, slug, self.folder())
        if build or spooled is None:
            try:
                spooled = self.build(publication, spooled)
            except Exception as e:
                log.exception("The public file of %s %s failed", kind, slug)
                failure = self._error(NOT_BUILT, reason=e)
                self._failed(publication, job, now, failure, answered=False)
                return
            if spooled is None:  # no such tournament (deleted, or restored under way)
                job.due = now + HEARTBEAT
                return
        if job.stopped == spooled.revision:
            job.due = float("inf")  # until a change, a new setting or "Send now"
            return
        newer = spooled.revision > publication.sent_revision
        try:
            if job.due <= now or (newer and job.delay == 0):
                self.send(publication, spooled, job, now, body=newer)
        finally:
            if publication.unsaved:  # not sent now (a wait), or the answer's write failed
                Publication.objects.filter(pk=publication.pk).update(**publication.unsaved)

    def build(self, publication: Publication, spooled: spool.Spooled | None):
        """Spool the newest public file when it differs from the one spooled (a new revision);
        returns what is spooled now, or None when there is nothing to publish."""
        text = self.text(publication.kind, publication.slug)
        if text is None:
            return spooled
        digest = spool.digest_of(text)
        if spooled is not None and spooled.digest == digest:
            return spooled
        # The revision only grows: also when the database was restored to an older one, or the
        # spool's pair was broken by a crash (its meta still says which revision it held).
        held = (
            spooled.revision
            if spooled
            else spool.revision_on_disk(publication.kind, publication.slug, self.folder())
        )
        revision = max(publication.revision, held) + 1
        now = timezone.now()
        spooled = spool.Spooled(
            revision, timezone.localtime(now).isoformat(), digest, spool.pack(text)
        )
        spool.write(publication.kind, publication.slug, spooled, self.folder())
        # The new revision goes into the database with the send's answer, in one write after
        # the file is out: each write may wait for the desk's writers (SQLite's one writer),
        # and the spool on disk already holds the revision (the next build starts above it).
        publication.revision, publication.changed_at = revision, now
        publication.unsaved = {"revision": revision, "changed_at": now}
        return spooled

    def prepared(self, publication: Publication, spooled: spool.Spooled, body: bool):
        """(address, body, headers) of one POST: the file (or nothing, a heartbeat), signed;
        to a standby also sealed, and naming its slug."""
        key_id, secret = signed.split_key(publication.key)
        content = spooled.body if body else b""
        signs = publication.kind
        headers = {
            signed.KEY: key_id,
            signed.KIND: publication.kind,
            signed.REVISION: str(spooled.revision),
            signed.CHANGED_AT: spooled.changed_at,
            "Content-Type": "application/json",
        }
        if self.target == STANDBY:
            # Every tournament and club goes to the one standby: the slug is named and signed.
            signs = signed.standby_kind(publication.kind, publication.slug)
            headers[signed.SLUG] = publication.slug
            headers["Content-Type"] = "application/octet-stream"
            content = signed.seal(secret, content) if content else b""
        elif content:
            headers["Content-Encoding"] = "gzip"
        headers[signed.SIGNATURE] = signed.signature(secret, signs, spooled.revision, content)
        return publication.endpoint(), content, headers

    def request(self, publication: Publication, spooled: spool.Spooled, body: bool):
        """(status, answer dict) of one POST; raises OSError (URLError, a timeout) with no
        answer."""
        return self.post(*self.prepared(publication, spooled, body))

    def post(self, url: str, content: bytes, headers: dict):
        """The POST itself (the standard library's urllib; the tests' in-process sender posts
        through Django's test client instead)."""
        request = urllib.request.Request(url, data=content, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310
                status, text = response.status, response.read()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read()
        try:
            answer = json.loads(text or b"{}")
        except ValueError:
            answer = {}
        return status, answer if isinstance(answer, dict) else {}

    def send(self, publication, spooled, job, now, body=True) -> None:
        for _attempt in range(RESENDS):
            try:
                status, answer = self.request(publication, spooled, body)
            except (OSError, ValueError) as e:  # no answer: refused, unreachable, timed out
                reason = getattr(e, "reason", None) or e
                host = urlsplit(publication.url).hostname or publication.url
                self._failed(
                    publication, job, now, self._error(NO_ANSWER, host=host, reason=reason)
                )
                return
            have = answer.get("have")
            have = have if isinstance(have, int) and not isinstance(have, bool) else None
            reason = str(answer.get("error") or "")
            if status == 200 and have is not None:
                self._answered(publication, job, now, have, body)
                if have >= spooled.revision or body:
                    return
                body = True  # a heartbeat told us the server holds less: the newest file
                continue
            if status == 409 and have is not None and have >= spooled.revision:
                # The server holds a newer revision than ours (the hall was restored): ours
                # moves above it, and the same file goes again under it.
                spooled = replace(spooled, revision=have + 1)
                spool.write(publication.kind, publication.slug, spooled, self.folder())
                Publication.objects.filter(pk=publication.pk).update(revision=have + 1)
                publication.revision = have + 1
                if "revision" in publication.unsaved:
                    publication.unsaved["revision"] = have + 1
                body = True
                continue
            if status in (400, 401, 403):
                message = REFUSED_FILE if status == 400 else REFUSED_KEY
                job.stopped = spooled.revision
                self._failed(publication, job, now, self._error(message, reason=reason or status))
                job.due = float("inf")
                return
            self._failed(publication, job, now, self._error(ANSWERED, status=status, reason=reason))
            return

    def _answered(self, publication, job, now, have: int, body: bool) -> None:
        moment = timezone.now()
        fields = {
            "sent_revision": have,
            "heard_at": moment,
            "failing_since": None,
            "last_error": "",
        }
        if body:
            fields["sent_at"] = moment
        fields |= publication.unsaved
        publication.unsaved = {}
        Publication.objects.filter(pk=publication.pk).update(**fields)
        for name, value in fields.items():
            setattr(publication, name, value)
        job.delay, job.stopped, job.due = 0.0, None, now + HEARTBEAT

    def _failed(self, publication, job, now, error: str, answered: bool = True) -> None:
        """Keep the failure for the page, and try again after the next wait (1, 2, 4 … 30 s)."""
        moment = timezone.now()
        since = publication.failing_since or moment
        fields = {"failing_since": since, "last_error": error}
        if answered and json.loads(error)["message"] != NO_ANSWER:
            fields["heard_at"] = moment
        fields |= publication.unsaved
        publication.unsaved = {}
        Publication.objects.filter(pk=publication.pk).update(**fields)
        for name, value in fields.items():
            setattr(publication, name, value)
        job.delay = min(BACKOFF_MAX, job.delay * 2) if job.delay else 1.0
        job.due = now + job.delay

    # --- the thread

    def start(self) -> None:
        """Start the thread once (with the first change, or the first request to the server)."""
        if not threaded():
            return
        with self.cond:
            if self.thread is not None and self.thread.is_alive():
                return
            self.thread = threading.Thread(
                target=self._work, name=f"desk-publishing-{self.target}", daemon=True
            )
            self.thread.start()

    def stop(self, timeout: float = TIMEOUT + 5) -> None:
        """End the thread after its current turn (the tests; the server's end needs nothing:
        what waits is on disk)."""
        with self.cond:
            thread, self.stopping = self.thread, True
            self.cond.notify()
        if thread is not None:
            thread.join(timeout)
        with self.cond:
            self.stopping, self.thread, self.resumed = False, None, False

    def _wait(self) -> float:
        now = time.monotonic()
        if self.changed_ids or any(job.build for job in self.jobs.values()):
            return 0.0
        return max(0.0, min([HEARTBEAT] + [job.due - now for job in self.jobs.values()]))

    def _work(self) -> None:
        while not self.stopping:
            try:
                close_old_connections()
                if not self.resumed:
                    self.resume()
                self.run_pending()
            except Exception:  # the database away a moment: the next turn tries again
                log.exception("Publishing failed")
            finally:
                # Hold no connection between turns (as the backup writer).
                connections.close_all()
            with self.cond:
                wait = self._wait()
                if wait > 0 and not self.stopping:
                    self.cond.wait(timeout=wait)


SENDER = Sender()
STANDBY_SENDER = Sender(STANDBY)
SENDERS = {FEDERATION: SENDER, STANDBY: STANDBY_SENDER}


def _changed(kind: str, pk: int) -> None:
    for sender in SENDERS.values():
        sender.changed(kind, pk)


def _on_commit(kind: str, pk: int) -> None:
    """Every sender's `changed` once the current transaction commits (once, however many
    writes)."""
    once_on_commit(("publish", kind, pk), lambda: _changed(kind, pk))


def tournament_changed(sender, tournament_id, **kwargs) -> None:
    """Receiver of tournament.changes.tournament_changed."""
    _on_commit(TOURNAMENT, tournament_id)


def club_changed(sender, club_id, **kwargs) -> None:
    """Receiver of club.changes.club_changed."""
    _on_commit(CLUB, club_id)


def accounts_changed(sender, instance=None, **kwargs) -> None:
    """Receiver of a user's, their groups', a grant's or a federation publication's save or
    delete (publishing.apps): the standby's accounts are built again once it commits."""
    if isinstance(instance, Publication) and instance.target != FEDERATION:
        return  # the standby's own rows (made by its sender) are not in the accounts
    once_on_commit(("publish", DESK, 0), lambda: SENDERS[STANDBY].changed(DESK, 0))


def publication_changed(kind: str, slug: str, target: str = FEDERATION) -> None:
    """publishing.services: a new setting, or "Send now"."""
    SENDERS[target].publication_changed(kind, slug)


def server_started(sender, **kwargs) -> None:
    """Receiver of request_started: the threads run from the server's first request on, and
    first send what waited on disk."""
    for one in SENDERS.values():
        one.start()
