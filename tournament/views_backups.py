"""The director's backups page: the backups folder, a download of each, and a restore that
shows what it will change and asks first."""

from django.contrib import messages
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from archive.tournament_file import TournamentFileError

from . import backups
from .models import Restore
from .roles import DirectorRequired
from .services import ActionRefused
from .tables import BackupsTable, RestoresTable
from .views_desk import TournamentMixin


def _backup(slug, name):
    try:
        return backups.find(slug, name)
    except ActionRefused as e:
        raise Http404(e.message) from e


class BackupList(DirectorRequired, TournamentMixin, View):
    def get(self, request, slug):
        context = {
            "tournament": self.tournament,
            "table": BackupsTable(backups.listing(slug)),
            "restores": RestoresTable(Restore.objects.filter(slug=slug)),
            "folder": backups.folder_of(slug),
            "keep": backups.keep(),
        }
        return render(request, "desk/backups.html", context)

    def post(self, request, slug):
        made = backups.write_backup(self.tournament, tag=backups.MANUAL)
        messages.success(request, _("Backup %(name)s written.") % {"name": made.name})
        return redirect("desk:backups", slug=slug)


class BackupDownload(DirectorRequired, TournamentMixin, View):
    def get(self, request, slug, name):
        backup = _backup(slug, name)
        return FileResponse(
            open(backup.path, "rb"),
            as_attachment=True,
            filename=f"{slug}-{backup.name}",
            content_type="application/json",
        )


class BackupRestore(DirectorRequired, TournamentMixin, View):
    def get(self, request, slug, name):
        backup = _backup(slug, name)
        try:
            _incoming, _existing, changes = backups.preview(backup.path.read_bytes())
        except TournamentFileError as e:
            messages.error(request, _("The backup cannot be read: %(problem)s") % {"problem": e})
            return redirect("desk:backups", slug=slug)
        context = {
            "tournament": self.tournament,
            "backup": backup,
            "changes": [backups.describe(c) for c in changes],
        }
        return render(request, "desk/backup_restore.html", context)

    def post(self, request, slug, name):
        backup = _backup(slug, name)
        try:
            tournament, record = backups.restore(
                backup.path.read_bytes(), request.user, backup_name=backup.name
            )
        except TournamentFileError as e:
            messages.error(request, _("Nothing restored: %(problem)s") % {"problem": e})
            return redirect("desk:backups", slug=slug)
        messages.success(
            request,
            _("Restored %(name)s. The state before is saved as %(before)s.")
            % {"name": backup.name, "before": record.before if record else "–"},
        )
        return redirect("desk:tournament", slug=tournament.slug)
