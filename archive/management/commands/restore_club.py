"""Restore a club rating from its file (a backup in <DESK_BACKUP_DIR>/club.<slug>/), as a new
club."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from archive.club_file import restore_club
from archive.tournament_file import TournamentFileError
from tournament.commands import read_input


class Command(BaseCommand):
    help = (
        "Restore the club rating in FILE (a club backup) as a new club, under the file's slug or "
        "--slug. Refused, changing nothing, when the file has a problem or the slug is taken."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", help="restore under this slug instead of the file's")

    def handle(self, *args, file, slug=None, **options):
        content = read_input(file)
        try:
            restored = restore_club(content, slug=slug)
        except TournamentFileError as e:
            raise CommandError(_("Nothing restored: %(problem)s") % {"problem": e}) from e
        for name, person in restored.linked:
            self.stdout.write(
                _("%(name)s: the desk's person %(person)s (#%(id)s), by the same EMA id")
                % {"name": name, "person": person.name, "id": person.pk}
            )
        for person in restored.created:
            self.stdout.write(
                _("%(name)s: a new person (#%(id)s)") % {"name": person.name, "id": person.pk}
            )
        if restored.users:
            self.stdout.write(
                _("Users created inactive, without a password: %(names)s")
                % {"names": ", ".join(restored.users)}
            )
        club = restored.club
        self.stdout.write(
            _("Restored %(name)s (%(slug)s): %(games)d games.")
            % {"name": club.name, "slug": club.slug, "games": club.games.count()}
        )
