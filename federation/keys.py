"""A publishing key's secret: derived from the server's SECRET_KEY, the key's id and its
creation time, so it is never stored and the server works it out again to check a signature.
The organiser sees it once, as `<id>.<secret>` (key_text), and pastes that into the hall."""

import hashlib
import hmac
from datetime import UTC

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ActionRefused
from tournament.models import RESERVED_SLUGS

from .models import Kind, Mirror, PublishingKey

SECRET_LENGTH = 40


def secret_of(key: PublishingKey) -> str:
    created = key.created_at.astimezone(UTC).isoformat()
    message = f"publishing-key:{key.pk}:{created}".encode()
    digest = hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()
    return digest[:SECRET_LENGTH]


def key_text(key: PublishingKey) -> str:
    """What the organiser pastes into the hall's Publication settings."""
    return f"{key.pk}.{secret_of(key)}"


def key_of(key_id) -> PublishingKey | None:
    """The key of an X-Desk-Key header (revoked ones too), or None."""
    text = str(key_id or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        return None
    return PublishingKey.objects.filter(pk=int(text)).first()


def make_key(owner, kind: str, slug: str, label: str = "") -> PublishingKey:
    """A new key for `owner` to publish the `kind` at `slug`. Refused (ActionRefused naming the
    field) for a slug that is not one, is kept for the desk's own addresses, or has a live key."""
    slug = (slug or "").strip()
    try:
        validate_slug(slug)
    except ValidationError as e:
        raise ActionRefused(e.messages[0], field="slug") from e
    if kind not in Kind.values:
        raise ActionRefused(_("Choose a tournament or a club rating."), field="kind")
    if kind == Kind.TOURNAMENT and slug in RESERVED_SLUGS:
        raise ActionRefused(
            _("The address %(slug)s is kept for the desk's own pages: choose another.")
            % {"slug": slug},
            field="slug",
        )
    with transaction.atomic():
        taken = PublishingKey.objects.select_for_update().filter(
            kind=kind, slug=slug, revoked_at__isnull=True
        )
        mirror = Mirror.objects.filter(kind=kind, slug=slug).select_related("key").first()
        if mirror is not None and mirror.key is not None and mirror.key.owner_id != owner.pk:
            # A revoked key frees its address for its owner only: another organiser's key
            # would take over a mirror that is not theirs.
            raise ActionRefused(
                _("The address %(slug)s is another organiser's mirror: choose another.")
                % {"slug": slug},
                field="slug",
            )
        if taken.exists():
            raise ActionRefused(
                _("The address %(slug)s has a live key already: revoke it first.") % {"slug": slug},
                field="slug",
            )
        try:
            with transaction.atomic():
                return PublishingKey.objects.create(
                    owner=owner, kind=kind, slug=slug, label=(label or "").strip()
                )
        except IntegrityError as e:  # another organiser took it at the same moment
            raise ActionRefused(
                _("The address %(slug)s has a live key already: revoke it first.") % {"slug": slug},
                field="slug",
            ) from e


def revoke_key(key: PublishingKey) -> PublishingKey:
    """The key refused from now on; the mirror it published stays as it was."""
    with transaction.atomic():
        key = PublishingKey.objects.select_for_update().get(pk=key.pk)
        if key.revoked_at is None:
            key.revoked_at = timezone.now()
            key.save(update_fields=["revoked_at"])
    return key
