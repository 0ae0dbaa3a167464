"""The table page: reached by the table's link (QR code) or short code, no login."""

from django.urls import path

from sheet import views as v

app_name = "sheet"
H = "h/<slug:slug>/<int:number>/<int:table>/<str:key>/"
urlpatterns = [
    path("h/", v.code_entry, name="code"),
    path(H, v.table_page, name="table"),
    # The state's place by another name than `slug`: the time-zone middleware reads the
    # tournament of every address with a slug (tournament.middleware), one query, the most of a
    # refresh's cost that finds the state kept; the state shows no time in a zone (its moments
    # are milliseconds since 1970, each phone shows them in its own).
    path(H.replace("<slug:slug>", "<slug:at>") + "state.json", v.state, name="state"),
    path(H + "act/", v.act, name="act"),
]
