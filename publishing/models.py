"""Where a tournament or a club rating is published (docs/features/federation.md): one row per
kind and slug (the hall's), not a foreign key: a restore replaces the tournament's row, and its
publication goes on with the restored one."""

import ipaddress
import json
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.signed import split_key

URL_MAX = 500
KEY_MAX = 200


def is_local_host(host: str) -> bool:
    """A loopback or private-LAN address (an IP literal of 127/8, ::1, 10/8, 172.16/12,
    192.168/16, fc00::/7, link-local), or `localhost`: a server in the hall's own network, which
    may be reached without TLS."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def validate_server_url(value: str) -> None:
    """The federation server's address as the organiser types it: https:// with a host (and an
    optional path), or http:// to a loopback or private-LAN address only (the internet is
    reached over TLS: the key's signature keeps a file from being changed, not from being
    read)."""
    try:
        parts = urlsplit(value.strip())
        host = parts.hostname or ""
        parts.port  # noqa: B018  (a port that is not a number raises ValueError)
    except ValueError as e:
        raise ValidationError(_("is not a web address"), code="invalid") from e
    if parts.scheme not in ("http", "https") or not host:
        raise ValidationError(
            _("must start with https:// and name the server, e.g. https://results.example.org"),
            code="invalid",
        )
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ValidationError(
            _("must be the server's address only, without a user, ? or #"), code="invalid"
        )
    if parts.scheme == "http" and not is_local_host(host):
        raise ValidationError(
            _("must start with https:// (http:// only to this machine or the hall's network)"),
            code="insecure",
        )


def validate_key(value: str) -> None:
    """A publishing key as the federation server shows it: `<id>.<secret>` (core.signed)."""
    try:
        split_key(value)
    except ValueError as e:
        raise ValidationError(
            _("is not a publishing key: copy the whole key the server shows (id.secret)"),
            code="invalid",
        ) from e


class Publication(models.Model):
    class Target(models.TextChoices):
        FEDERATION = "federation", _("federation server")
        STANDBY = "standby", _("standby desk")

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("tournament")
        CLUB = "club", _("club rating")
        # The standby's alone (publishing.standby): the accounts and the desk's secret.
        DESK = "desk", _("accounts and the desk's secret")

    # Where it goes: a federation server (the public file of one tournament or club, set by
    # hand), or the standby desk (the full file of every tournament and club, and the desk's
    # accounts; the rows are made by publishing.standby as the standby is paired and as
    # tournaments and clubs appear).
    target = models.CharField(
        max_length=12, choices=Target.choices, default=Target.FEDERATION, editable=False
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    slug = models.SlugField(max_length=80)
    url = models.CharField(
        _("federation server"),
        max_length=URL_MAX,
        validators=[validate_server_url],
        help_text=_("The server's address, e.g. https://results.example.org"),
    )
    # The hall's own secret, kept like the database (the server keeps only how to make it).
    key = models.CharField(
        _("publishing key"),
        max_length=KEY_MAX,
        validators=[validate_key],
        help_text=_("The key the federation server showed for this event: id.secret"),
    )
    enabled = models.BooleanField(
        _("publish"), default=False, help_text=_("Send every change to the server.")
    )
    # The publishing revision: grows by one for every public file that differs from the last,
    # and never goes back (also across a restore of the hall: see publishing.sender).
    revision = models.PositiveIntegerField(default=0, editable=False)
    sent_revision = models.PositiveIntegerField(default=0, editable=False)  # the server's `have`
    changed_at = models.DateTimeField(null=True, editable=False)  # the hall's time of `revision`
    sent_at = models.DateTimeField(null=True, editable=False)  # the last file the server took
    heard_at = models.DateTimeField(null=True, editable=False)  # the server's last answer
    failing_since = models.DateTimeField(null=True, editable=False)
    last_error = models.TextField(blank=True, editable=False)
    # Who set it up and changed it, and when: the history (the sender's own updates bypass it).
    history = HistoricalRecords(
        excluded_fields=[
            "revision",
            "sent_revision",
            "changed_at",
            "sent_at",
            "heard_at",
            "failing_since",
            "last_error",
        ]
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["target", "kind", "slug"], name="publication_target_unique"
            ),
        ]
        verbose_name = _("publication")
        verbose_name_plural = _("publications")

    def __str__(self):
        return f"{self.kind} {self.slug} → {self.url}"

    # What the sender changed and has not written yet (publishing.sender: written with the
    # send's answer).
    unsaved: dict

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.unsaved = {}

    def endpoint(self) -> str:
        """Where the files go: the server's address and /api/publish/ (a standby desk's
        /api/standby/; one slash)."""
        path = "/api/standby/" if self.target == self.Target.STANDBY else "/api/publish/"
        return self.url.strip().rstrip("/") + path

    def error_text(self) -> str:
        """The last failure in the reader's language (the sender keeps its message and values,
        publishing.sender), or ""."""
        if not self.last_error:
            return ""
        try:
            stored = json.loads(self.last_error)
            return gettext(stored["message"]) % stored["params"]
        except (ValueError, KeyError, TypeError):
            return self.last_error


class Standby(models.Model):
    """This laptop as a standby desk (publishing.standby): the pairing key the main desk signs
    and seals its stream with, and how it ended. One is waiting at a time (ended_at empty);
    what it received is on disk, under its key's id."""

    key_id = models.CharField(max_length=24, unique=True, editable=False)
    # The standby's own secret, kept like the database: the main desk keeps the same key.
    secret = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(editable=False)
    created_by = models.ForeignKey(
        "auth.User", null=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    heard_at = models.DateTimeField(null=True, editable=False)  # the main desk's last request
    heard_from = models.CharField(max_length=100, blank=True, editable=False)
    ended_at = models.DateTimeField(null=True, editable=False)
    ended_by = models.ForeignKey(
        "auth.User", null=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    took_over = models.BooleanField(default=False, editable=False)
    history = HistoricalRecords(excluded_fields=["heard_at", "heard_from"])

    class Meta:
        verbose_name = _("standby")
        verbose_name_plural = _("standbys")

    def __str__(self):
        return f"standby {self.key_id}"

    @property
    def key(self) -> str:
        """The pairing key the main desk is given: `<id>.<secret>` (core.signed)."""
        return f"{self.key_id}.{self.secret}"
