"""A versioned entry that a second person confirms (issue 35): a tournament table's result
(scoring.Result) and a club game's (club.GameVersion), written once.

Each entry or correction is a new version, never an overwrite; a version counts once a second
person confirms it (or the one who entered it, where the event allows single confirmation), and
the confirmed version before it is superseded. The database keeps one confirmed version of each
table or game (entry_constraints). A save or a confirmation made on an older page is refused
naming who changed it and when (Entry.stale_message).

The steps a service takes inside its transaction, with the table's or the game's row locked,
are here too: refuse_stale (a save on the version the person saw), refuse_confirmation (the
newest draft, by whom may_confirm lets), supersede and mark_confirmed."""

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from core.errors import ActionRefused, StaleEdit
from core.marks import split_mark
from core.text import validate_line

VERSION_MAX = 2**31 - 1  # a PositiveIntegerField on every database (SQLite would take more)


def entry_constraints(parent: str, *, unique: str, one_confirmed: str) -> list:
    """The versions of one `parent` (a table, a game) are numbered once each, and the database,
    not the view, guarantees that one of them at most is confirmed."""
    return [
        models.UniqueConstraint(fields=[parent, "version"], name=unique),
        models.UniqueConstraint(
            fields=[parent], condition=Q(status="confirmed"), name=one_confirmed
        ),
    ]


class Entry(models.Model):
    """One version of a versioned, second-person-confirmed entry. A concrete entry names its
    parent field (VERSION_OF), the event whose single-confirmation setting it follows (event),
    and its own words: STALE_EDIT (who and when) and SECOND_PERSON (the refusal to confirm
    one's own entry)."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        CONFIRMED = "confirmed", _("confirmed")
        SUPERSEDED = "superseded", _("superseded")

    version = models.PositiveIntegerField(validators=[MaxValueValidator(VERSION_MAX)])
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    entered_at = models.DateTimeField()
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    superseded_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True, validators=[validate_line])

    VERSION_OF = ""  # the parent field: "table", "game"
    STALE_EDIT = ""  # "This … was changed by %(who)s at %(when)s — reload the page."
    SECOND_PERSON = ""  # "You entered this …: a second … must confirm it."
    NOBODY = _("unknown")  # who entered a version no user of this desk saved

    class Meta:
        abstract = True

    @property
    def event(self):
        """The tournament or the club rating whose `single_confirmation` applies."""
        raise NotImplementedError

    def versions(self):
        """Every version of the same table or game, this one among them."""
        parent = f"{self.VERSION_OF}_id"
        return type(self)._default_manager.filter(**{parent: getattr(self, parent)})

    def newest(self):
        """The newest version of the same table or game, with who entered and confirmed it."""
        newest = self.versions().order_by("-version")
        return newest.select_related("entered_by", "confirmed_by").first()

    def confirm_refusal(self, user) -> str | None:
        """Why `user` may not confirm this version, or None: the second person's rule. The one
        who entered it confirms it only where the event allows single confirmation; an entry
        nobody entered (the table page's) any desk user confirms."""
        if self.entered_by_id == user.pk and not self.event.single_confirmation:
            return str(self.SECOND_PERSON)
        return None

    def may_confirm(self, user) -> bool:
        """The one rule of who confirms: a draft, by a second person (confirm_refusal)."""
        return self.status == self.Status.DRAFT and self.confirm_refusal(user) is None

    def entrant(self) -> str:
        """Who entered this version, as the pages name them: the user; one a file named whom
        this desk lacks, by the name its note keeps; else NOBODY."""
        if self.entered_by is not None:
            return self.entered_by.get_username()
        return split_mark(self.note)[1].get("entered") or str(self.NOBODY)

    def stale_message(self) -> str:
        """Told to a person whose page is older than this version: who saved it, or who
        confirmed it, and when."""
        who = self.entrant()
        when = self.entered_at
        if self.confirmed_at and self.confirmed_by:
            who, when = self.confirmed_by.get_username(), self.confirmed_at
        return self.STALE_EDIT % {
            "who": who,
            "when": date_format(timezone.localtime(when), "H:i:s"),
        }


def refuse_stale(latest: Entry | None, base_version: int) -> None:
    """A save is made on the version the person saw (`base_version`, 0 for none): if somebody
    saved since, it is refused rather than silently replacing their work."""
    if (latest.version if latest else 0) != base_version:
        raise StaleEdit(latest.stale_message())


def refuse_confirmation(entry: Entry, latest: Entry, user) -> None:
    """Only the newest version is confirmed, while it is a draft, and by whom the second
    person's rule lets (Entry.confirm_refusal)."""
    if entry.status != Entry.Status.DRAFT or latest.pk != entry.pk:
        raise StaleEdit(latest.stale_message())
    refusal = entry.confirm_refusal(user)
    if refusal:
        raise ActionRefused(refusal)


def supersede(versions, status: str, now) -> None:
    """The `versions` in `status` are superseded at `now`; they stay in the history."""
    versions.filter(status=status).update(status=Entry.Status.SUPERSEDED, superseded_at=now)


def mark_confirmed(entry: Entry, user):
    """Confirm `entry` (checked by refuse_confirmation): the version confirmed before is
    superseded. A confirmation that races another is refused as a stale edit by the database's
    one confirmed version."""
    now = timezone.now()
    supersede(entry.versions(), Entry.Status.CONFIRMED, now)
    entry.status = Entry.Status.CONFIRMED
    entry.confirmed_by, entry.confirmed_at = user, now
    try:
        with transaction.atomic():
            entry.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    except IntegrityError as e:
        raise StaleEdit(entry.newest().stale_message()) from e
    return entry
