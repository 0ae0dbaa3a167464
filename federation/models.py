"""The federation server's rows (issue 38): organisers' publishing keys and the mirrors the
halls keep up to date with them.

A mirror is keyed by kind and slug, never by a foreign key to its tournament or club: a file
received replaces the tournament's (or club's) rows whole, as a restore does, and the mirror
stays."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    TOURNAMENT = "tournament", _("tournament")
    CLUB = "club", _("club rating")


class PublishingKey(models.Model):
    """What one organiser lets one hall publish: the tournament (or club rating) at `slug` on
    this server. The secret is derived (federation.keys), never stored."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="publishing_keys",
        verbose_name=_("owner"),
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    slug = models.SlugField(
        _("address"),
        max_length=80,
        help_text=_("Its address on this server: /t/<address>/ or /r/<address>/."),
    )
    label = models.CharField(_("label"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("publishing key")
        verbose_name_plural = _("publishing keys")
        ordering = ["-created_at", "-pk"]
        constraints = [
            # One live key per address: the mirror's hall is the one that holds it.
            models.UniqueConstraint(
                fields=["kind", "slug"],
                condition=Q(revoked_at__isnull=True),
                name="federation_one_live_key_per_address",
            )
        ]

    def __str__(self):
        return f"{self.kind} {self.slug} #{self.pk}"

    @property
    def live(self) -> bool:
        return self.revoked_at is None


class Mirror(models.Model):
    """A tournament or club rating as the last file its hall sent left it: which publishing
    revision that was, when the hall made it and when the hall was last heard from."""

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    slug = models.SlugField(_("address"), max_length=80)
    key = models.ForeignKey(
        PublishingKey,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="mirrors",
        verbose_name=_("key"),
    )
    # The hall's publishing revision (publishing.Publication.revision), not Tournament.revision.
    revision = models.PositiveBigIntegerField(_("revision"), default=0)
    changed_at = models.DateTimeField(_("updated"), null=True, blank=True)
    heard_at = models.DateTimeField(_("last heard"), null=True, blank=True)
    received_at = models.DateTimeField(_("received"), null=True, blank=True)

    class Meta:
        verbose_name = _("mirror")
        verbose_name_plural = _("mirrors")
        constraints = [
            models.UniqueConstraint(fields=["kind", "slug"], name="federation_one_mirror")
        ]

    def __str__(self):
        return f"{self.kind} {self.slug} r{self.revision}"
