"""What the desk's management commands share: the tournament named by its slug (Tabbycat's
TournamentCommand), the user a command acts for, reading its input and writing its output."""

import shutil
import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.models import Tournament


class TournamentCommand(BaseCommand):
    """A command about one tournament: its first argument is the slug, looked up here the same
    way for every command; subclasses add their own arguments and `handle_tournament()`."""

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's slug")
        self.add_tournament_arguments(parser)

    def add_tournament_arguments(self, parser):
        pass

    def handle(self, *args, slug, **options):
        return self.handle_tournament(tournaments([slug]).get(), **options)

    def handle_tournament(self, tournament, **options):
        raise NotImplementedError


def tournaments(slugs=None):
    """The tournaments named by their slugs (every one when none is named), by slug; a slug
    that names none is refused, the same way for every command."""
    found = Tournament.objects.order_by("slug")
    if slugs:
        known = set(found.filter(slug__in=slugs).values_list("slug", flat=True))
        for slug in slugs:
            if slug not in known:
                raise CommandError(_("No tournament with the slug %(slug)s.") % {"slug": slug})
        found = found.filter(slug__in=slugs)
    return found


def acting_user(username: str | None):
    """The user a command acts for (`--user`), None when not given; a clear error if unknown."""
    if not username:
        return None
    User = get_user_model()
    try:
        return User._default_manager.get_by_natural_key(username)
    except User.DoesNotExist as e:
        raise CommandError(_("No user named %(user)s.") % {"user": username}) from e


def write_output(output, data: bytes | str | Path) -> None:
    """Write a command's result (bytes, text, or a copy of a file) to `output`, or say why not."""
    try:
        if isinstance(data, Path):
            shutil.copyfile(data, Path(output))
        elif isinstance(data, str):
            Path(output).write_text(data, encoding="utf-8", newline="\n")
        else:
            Path(output).write_bytes(data)
    except OSError as e:
        raise CommandError(
            _("Cannot write %(file)s: %(problem)s") % {"file": output, "problem": e}
        ) from e


def read_input(file) -> bytes:
    """The bytes of a command's input file (`-`: standard input), or say why not."""
    if file == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(file).read_bytes()
    except OSError as e:
        raise CommandError(
            _("Cannot read %(file)s: %(problem)s") % {"file": file, "problem": e}
        ) from e
