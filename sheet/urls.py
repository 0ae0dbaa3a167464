"""The table page: reached by the table's link (QR code) or short code, no login."""

from django.urls import path

from sheet import views as v

app_name = "sheet"
H = "h/<slug:slug>/<int:number>/<int:table>/<str:key>/"
urlpatterns = [
    path("h/", v.code_entry, name="code"),
    path(H, v.table_page, name="table"),
    path(H + "state.json", v.state, name="state"),
    path(H + "act/", v.act, name="act"),
]
