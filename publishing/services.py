"""The hall's publishing settings: where a tournament or club is published (`set_publication`)
and the standby desk this desk sends everything to (`set_standby`)."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from club.models import Club
from club.services.checks import checked
from core.errors import ActionRefused
from tournament.models import Tournament

from . import sender, standby
from .models import Publication, validate_key, validate_server_url

FEDERATION, STANDBY = Publication.Target.FEDERATION, Publication.Target.STANDBY


@transaction.atomic
def set_publication(kind: str, slug: str, url: str, key: str, enabled: bool, user) -> Publication:
    """Where the tournament (kind "tournament") or the club rating ("club") `slug` is published,
    with which key, and whether it is. An empty key keeps the stored one. A value the model does
    not take (publishing.models: the address, the key) is refused naming its field, and nothing
    changes. A new address or key starts over: the server there holds nothing we know of yet.
    Once it commits, the sender builds and sends the newest public file (or stops)."""
    if kind not in (sender.TOURNAMENT, sender.CLUB):
        raise ActionRefused(_("Nothing of this kind is published: %(kind)s") % {"kind": kind})
    publication = Publication.objects.select_for_update().filter(
        target=FEDERATION, kind=kind, slug=slug
    ).first() or Publication(kind=kind, slug=slug)
    url, key = (url or "").strip(), (key or "").strip()
    if not key and publication.pk:
        key = publication.key
    moved = publication.pk is not None and (url, key) != (publication.url, publication.key)
    publication.url, publication.key, publication.enabled = url, key, bool(enabled)
    checked(publication, exclude=["kind", "slug"])
    if moved:
        publication.sent_revision = 0
        publication.failing_since = None
        publication.last_error = ""
    publication._history_user = user  # django-simple-history: who set it, also outside a request
    publication.save()
    transaction.on_commit(lambda: sender.publication_changed(kind, slug))
    return publication


def send_now(kind: str, slug: str) -> None:
    """ "Send now": the newest public file built and sent at once (a refusal or a wait before is
    forgotten); refused when publishing is off."""
    if not Publication.objects.filter(
        target=FEDERATION, kind=kind, slug=slug, enabled=True
    ).exists():
        raise ActionRefused(_("Publishing is off: switch it on and save first."), field="enabled")
    transaction.on_commit(lambda: sender.publication_changed(kind, slug))


@transaction.atomic
def set_standby(url: str, key: str, enabled: bool, user) -> Publication:
    """Send every change of this desk to the standby desk at `url` (its address on the hall's
    network) with the pairing key it showed (publishing.standby), or stop. The stream is one
    publication per tournament and club and one of the accounts (kind "desk"), all with the
    same address and key; those of tournaments and clubs made later are added by the sender.
    An empty key keeps the stored one; a value the model does not take is refused naming its
    field, and nothing changes. A new address or key starts over. Refused on a standby."""
    if enabled and standby.waiting() is not None:
        raise ActionRefused(
            _("This laptop is a standby: it cannot send to one. Take over or stop it first.")
        )
    rows = Publication.objects.select_for_update().filter(target=STANDBY)
    desk = rows.filter(kind=Publication.Kind.DESK).first() or Publication(
        target=STANDBY, kind=Publication.Kind.DESK, slug=sender.DESK_SLUG
    )
    url, key = (url or "").strip(), (key or "").strip()
    if not key and desk.pk:
        key = desk.key
    # Checked here under the page's own names (the model's are a federation server's).
    for name, label, value, check in (
        ("url", _("Standby's address"), url, validate_server_url),
        ("key", _("Pairing key"), key, validate_key),
    ):
        try:
            check(value)
        except ValidationError as e:
            raise ActionRefused(f"{label}: {e.messages[0]}", field=name) from e
    moved = desk.pk is not None and (url, key) != (desk.url, desk.key)
    desk.url, desk.key, desk.enabled = url, key, bool(enabled)
    checked(desk, exclude=["kind", "slug", "target"])
    desk._history_user = user
    desk.save()
    have = set(rows.exclude(kind=Publication.Kind.DESK).values_list("kind", "slug"))
    for kind, model in ((sender.TOURNAMENT, Tournament), (sender.CLUB, Club)):
        for slug in model.objects.values_list("slug", flat=True):
            if (kind, slug) not in have:
                Publication(target=STANDBY, kind=kind, slug=slug, url=url, key=key).save()
    changes = {"url": url, "key": key, "enabled": desk.enabled}
    if moved:
        changes |= {"sent_revision": 0, "failing_since": None, "last_error": ""}
    rows.update(**changes)
    for kind, slug in rows.values_list("kind", "slug"):
        transaction.on_commit(
            lambda kind=kind, slug=slug: sender.publication_changed(kind, slug, STANDBY)
        )
    return desk
