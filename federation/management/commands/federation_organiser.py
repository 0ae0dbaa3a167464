"""Make a user an organiser on the federation server (one who makes publishing keys)."""

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from federation.organisers import make_organiser


class Command(BaseCommand):
    help = (
        "Make USERNAME an organiser of this federation server (created if there is none; "
        "--password sets its password)."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--password", help="set this password")

    def handle(self, *args, username, password=None, **options):
        user, made = make_organiser(username, password)
        if made:
            text = _("%(name)s made, an organiser.")
        else:
            text = _("%(name)s is an organiser.")
        self.stdout.write(text % {"name": user.get_username()})
        if made and not password:
            self.stdout.write(_("It has no password yet: give one with --password."))
