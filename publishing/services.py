"""The hall's publishing settings: one write, `set_publication`."""

from django.db import transaction
from django.utils.translation import gettext as _

from club.services.checks import checked
from core.errors import ActionRefused

from . import sender
from .models import Publication


@transaction.atomic
def set_publication(kind: str, slug: str, url: str, key: str, enabled: bool, user) -> Publication:
    """Where the tournament (kind "tournament") or the club rating ("club") `slug` is published,
    with which key, and whether it is. An empty key keeps the stored one. A value the model does
    not take (publishing.models: the address, the key) is refused naming its field, and nothing
    changes. A new address or key starts over: the server there holds nothing we know of yet.
    Once it commits, the sender builds and sends the newest public file (or stops)."""
    if kind not in Publication.Kind.values:
        raise ActionRefused(_("Nothing of this kind is published: %(kind)s") % {"kind": kind})
    publication = Publication.objects.select_for_update().filter(
        kind=kind, slug=slug
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
    if not Publication.objects.filter(kind=kind, slug=slug, enabled=True).exists():
        raise ActionRefused(_("Publishing is off: switch it on and save first."), field="enabled")
    transaction.on_commit(lambda: sender.publication_changed(kind, slug))
