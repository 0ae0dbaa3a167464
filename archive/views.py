"""The director's archive pages: the tournament file out (export) and in (import), the backups
folder with a download of each, and a restore that shows what it will change and asks first."""

from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from archive import backups
from archive.tables import BackupsTable, RestorePreviewTable, RestoresTable, to_the_second
from archive.tournament_file import (
    TournamentFileError,
    dumps,
    export_tournament,
    import_tournament,
)
from core.errors import ActionRefused
from core.forms import UploadForm
from core.roles import DirectorRequired
from tournament.mixins import TournamentMixin
from tournament.models import Restore
from tournament.people import matches_offer


def _offer_matches(request, tournament):
    """The file does not keep who each player is (its format is fixed): the matches page is
    offered again after an import or a restore, nothing linked until the director accepts."""
    offer = matches_offer(tournament, reverse("desk:people_matches", args=[tournament.slug]))
    if offer:
        messages.info(request, offer)


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
        return render(request, "archive/backups.html", context)

    def post(self, request, slug):
        try:
            made = backups.back_up_now(self.tournament)
        except ActionRefused as e:
            messages.error(request, e.message)
        else:
            messages.success(request, _("Backup %(name)s written.") % {"name": made.name})
        return redirect("archive:backups", slug=slug)


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
            return redirect("archive:backups", slug=slug)
        context = {
            "tournament": self.tournament,
            "backup": backup,
            "made_at": to_the_second(backup.made_at),
            "changes": len(changes),
            "table": RestorePreviewTable(backups.preview_rows(changes)),
        }
        return render(request, "archive/backup_restore.html", context)

    def post(self, request, slug, name):
        backup = _backup(slug, name)
        try:
            tournament, record = backups.restore(
                backup.path.read_bytes(), request.user, backup_name=backup.name
            )
        except TournamentFileError as e:
            messages.error(request, _("Nothing restored: %(problem)s") % {"problem": e})
            return redirect("archive:backups", slug=slug)
        messages.success(
            request,
            _("Restored %(name)s. The state before is saved as %(before)s.")
            % {"name": backup.name, "before": record.before if record else "–"},
        )
        _offer_matches(request, tournament)
        return redirect("desk:tournament", slug=tournament.slug)


class ExportFile(DirectorRequired, TournamentMixin, View):
    def get(self, request, slug):
        response = HttpResponse(
            dumps(export_tournament(self.tournament)),
            content_type="application/json; charset=utf-8",
        )
        response["Content-Disposition"] = f'attachment; filename="{self.tournament.slug}.json"'
        return response


class ImportFile(DirectorRequired, View):
    def get(self, request):
        return render(request, "archive/import_file.html", {"form": UploadForm()})

    def post(self, request):
        form = UploadForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                tournament = import_tournament(form.cleaned_data["file"].read(), user=request.user)
            except TournamentFileError as e:
                form.add_error("file", str(e))
            else:
                messages.success(request, _("Tournament imported."))
                _offer_matches(request, tournament)
                return redirect("desk:tournament", slug=tournament.slug)
        return render(request, "archive/import_file.html", {"form": form})
