"""Write a club rating's files: the rating table or every game as a PDF, or the workbook."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, Season
from club.selectors import current_season
from printing.pdf.club import games_pdf, rating_pdf
from printing.xlsx.club import club_workbook_bytes
from tournament.commands import write_output

WRITERS = {"rating": rating_pdf, "games": games_pdf, "workbook": club_workbook_bytes}


class Command(BaseCommand):
    help = (
        "Write a club rating's table (PDF), its games (PDF) or its workbook (XLSX: the rating, "
        "every game and each season's table)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's slug")
        parser.add_argument("--what", required=True, choices=tuple(WRITERS))
        parser.add_argument(
            "--season",
            metavar="NAME",
            help="a season's name, or 'all' for all time; without it the season of today "
            "(the games: every game)",
        )
        parser.add_argument("-o", "--output", metavar="FILE", required=True)

    def handle(self, *args, slug, what, season=None, output, **options):
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(_("No club rating with the slug %(slug)s.") % {"slug": slug})
        if season == "all" or (season is None and what == "games"):
            chosen = None
        elif season is None:
            with club.printing():
                chosen = current_season(club, timezone.localdate())
        else:
            chosen = Season.objects.filter(club=club, name=season).first()
            if chosen is None:
                raise CommandError(
                    _("--season: %(club)s has no season %(season)s.")
                    % {"club": club.slug, "season": season}
                )
        write_output(output, WRITERS[what](club, chosen))
        self.stdout.write(_("Wrote %(file)s.") % {"file": output})
