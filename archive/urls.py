"""The tournament file and backups, under /desk/: the director's."""

from django.urls import path

from archive import views as v

app_name = "archive"
T = "<slug:slug>/"
urlpatterns = [
    path("import/", v.ImportFile.as_view(), name="import_file"),
    path(T + "export/", v.ExportFile.as_view(), name="export_file"),
    path(T + "backups/", v.BackupList.as_view(), name="backups"),
    path(T + "backups/<str:name>", v.BackupDownload.as_view(), name="backup_download"),
    path(T + "backups/<str:name>/restore/", v.BackupRestore.as_view(), name="backup_restore"),
]
