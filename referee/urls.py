"""The referee's pages under /referee/<slug>/, and the addresses they had under /desk/."""

from django.http import HttpResponse
from django.urls import path, reverse

from referee import views as v
from referee import views_appeals as appeals
from referee import views_log as log

app_name = "referee"
T = "<slug:slug>/"
S = T + "s/<int:number>/"
urlpatterns = [
    path(T, v.RefereeHome.as_view(), name="home"),
    path(S + "t/<int:table>/", v.RefereeTable.as_view(), name="table"),
    path(S + "penalties/add/", v.PenaltyAdd.as_view(), name="penalty_add"),
    path(S + "substitute/", v.SubstituteView.as_view(), name="substitute"),
    path(S + "three-handed/", v.ThreeHanded.as_view(), name="three_handed"),
    path(S + "incidents/add/", v.IncidentAdd.as_view(), name="incident_add"),
    path(T + "players/<int:pk>/disqualify/", v.Disqualify.as_view(), name="disqualify"),
    path(T + "log/", log.RefereeLog.as_view(), name="log"),
    path(T + "penalties/<int:pk>/void/", log.PenaltyVoid.as_view(), name="penalty_void"),
    path(T + "penalties/<int:pk>/undo/", v.PenaltyUndo.as_view(), name="penalty_undo"),
    path(T + "incidents/<int:pk>/void/", log.IncidentVoid.as_view(), name="incident_void"),
    path(T + "appeals/", appeals.AppealList.as_view(), name="appeals"),
    path(T + "appeals/new/", appeals.AppealAdd.as_view(), name="appeal_add"),
    path(T + "appeals/<int:pk>/", appeals.AppealDetail.as_view(), name="appeal"),
]


def _moved_to(name):
    """The old /desk/… address of a referee page: a 307 to the new one (keeps a POST a POST,
    so a phone that loaded the page before the update still saves), query string included."""

    def view(request, **kwargs):
        target = reverse(f"referee:{name}", kwargs=kwargs)
        query = request.META.get("QUERY_STRING")
        response = HttpResponse(status=307)
        response["Location"] = f"{target}?{query}" if query else target
        return response

    return view


# Kept for a release after the move (issue 21): bookmarks and open phones still arrive.
moved = [
    path(T + "referee/", _moved_to("home")),
    path(S + "referee/t/<int:table>/", _moved_to("table")),
    path(S + "penalties/add/", _moved_to("penalty_add")),
    path(S + "substitute/", _moved_to("substitute")),
    path(S + "three-handed/", _moved_to("three_handed")),
    path(S + "incidents/add/", _moved_to("incident_add")),
    path(T + "players/<int:pk>/disqualify/", _moved_to("disqualify")),
    path(T + "log/", _moved_to("log")),
    path(T + "penalties/<int:pk>/void/", _moved_to("penalty_void")),
    path(T + "incidents/<int:pk>/void/", _moved_to("incident_void")),
    path(T + "appeals/", _moved_to("appeals")),
    path(T + "appeals/new/", _moved_to("appeal_add")),
    path(T + "appeals/<int:pk>/", _moved_to("appeal")),
]
