"""Restore a tournament from a tournament file: show what changes, ask, then replace it."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from archive import backups
from archive.tournament_file import TournamentFileError
from tournament.commands import acting_user, read_input


class Command(BaseCommand):
    help = (
        "Restore the tournament in FILE (a backup or any tournament file). A tournament with the "
        "same slug is first saved as a before-restore backup, then replaced; otherwise the file "
        "is imported as a new tournament. Shows what changes and asks unless --yes."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--yes", action="store_true", help="do not ask before replacing")
        parser.add_argument("--user", metavar="USERNAME", help="who restores (kept in the log)")

    def handle(self, *args, file, yes=False, user=None, **options):
        acting = acting_user(user)
        content = read_input(file)
        try:
            incoming, existing, changes = backups.preview(content)
            if existing is not None:
                self.stdout.write(
                    _("%(name)s (%(slug)s) exists; restoring %(file)s changes:")
                    % {"name": existing.name, "slug": existing.slug, "file": file}
                )
                for change in changes:
                    self.stdout.write("  " + backups.describe(change))
                if not changes:
                    self.stdout.write("  " + _("nothing"))
                if not yes and input(_("Replace it? [y/N] ")).strip().lower() not in ("y", "yes"):
                    raise CommandError(_("Nothing restored."))
            tournament, record = backups.restore(incoming, acting, backup_name=Path(file).name)
        except TournamentFileError as e:
            raise CommandError(str(e)) from e
        if record is not None:
            self.stdout.write(
                _("Restored %(slug)s; the state before is saved as %(before)s.")
                % {"slug": tournament.slug, "before": record.before}
            )
        else:
            self.stdout.write(_("Imported %(slug)s.") % {"slug": tournament.slug})
