"""The club rating's file written: a club as one JSON document (the format: archive.club_file)."""

from club.models import Club, GameScore, GameSeat, GameVersion, Presence
from club.services import CLUB_FIELDS
from people.models import NAMED_FIELDS

FORMAT = "mahjong-desk-club"
VERSION = 1


def _name(user) -> str | None:
    return user.username if user is not None else None


def _at(moment) -> str | None:
    return moment.isoformat() if moment is not None else None


def export_club(club: Club) -> dict:
    """The club's file (the format: archive.club_file). A fixed number of queries."""
    members = list(club.members.select_related("person").order_by("pk"))
    local = {}  # person pk -> the file's id
    people = []
    for member in members:
        if member.person_id not in local:
            local[member.person_id] = len(local) + 1
            people.append(
                {"id": local[member.person_id]}
                | {name: getattr(member.person, name) for name in NAMED_FIELDS}
            )
    person_of = {m.pk: local[m.person_id] for m in members}

    presences = {}
    for p in Presence.objects.filter(evening__club=club).select_related("by").order_by("at", "pk"):
        presences.setdefault(p.evening_id, []).append(
            {"person": person_of[p.member_id], "by": _name(p.by), "at": _at(p.at)}
        )
    seats = {}
    for s in GameSeat.objects.filter(game__club=club).order_by("pk"):
        seats.setdefault(s.game_id, []).append({"wind": s.wind, "person": person_of[s.member_id]})
    scores = {}
    for s in GameScore.objects.filter(version__game__club=club).order_by("pk"):
        scores.setdefault(s.version_id, []).append(
            {"wind": s.wind, "person": person_of[s.member_id], "score": s.score, "chombo": s.chombo}
        )
    versions = {}
    all_versions = GameVersion.objects.filter(game__club=club).select_related(
        "entered_by", "confirmed_by"
    )
    for v in all_versions.order_by("game", "version"):
        versions.setdefault(v.game_id, []).append(
            {
                "version": v.version,
                "status": v.status,
                "void": v.void,
                "closed_season_override": v.closed_season_override,
                "entered_by": _name(v.entered_by),
                "entered_at": _at(v.entered_at),
                "confirmed_by": _name(v.confirmed_by),
                "confirmed_at": _at(v.confirmed_at),
                "superseded_at": _at(v.superseded_at),
                "note": v.note,
                "scores": scores.get(v.pk, []),
            }
        )
    games = club.games.select_related("evening", "created_by").order_by("played_on", "number")
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {name: getattr(club, name) for name in CLUB_FIELDS},
        "people": people,
        "members": [
            {"person": person_of[m.pk], "joined_on": m.joined_on.isoformat(), "active": m.active}
            for m in members
        ],
        "seasons": [
            {
                "name": s.name,
                "start": s.start.isoformat(),
                "end": s.end.isoformat(),
                "closed_at": _at(s.closed_at),
                "closed_by": _name(s.closed_by),
            }
            for s in club.seasons.select_related("closed_by").order_by("start", "pk")
        ],
        "evenings": [
            {"date": e.date.isoformat(), "present": presences.get(e.pk, [])}
            for e in club.evenings.order_by("date")
        ],
        "games": [
            {
                "played_on": g.played_on.isoformat(),
                "number": g.number,
                "evening": g.evening.date.isoformat() if g.evening else None,
                "created_by": _name(g.created_by),
                "created_at": _at(g.created_at),
                "seats": seats.get(g.pk, []),
                "versions": versions.get(g.pk, []),
            }
            for g in games
        ],
    }
