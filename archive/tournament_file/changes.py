"""What a restore would change: two tournament files (dicts, format version 1) compared.

Plain Python, no Django: `changes(current, incoming)` returns `Change` records with a code and
their values; the desk turns each code into a sentence in the director's language.
"""

from dataclasses import dataclass, field

# Head fields a director would notice; the rest of `tournament` is compared as a whole.
HEAD_FIELDS = ("name", "ruleset", "rules", "sessions", "fee", "start_date", "venue", "scope")
PLAYER_FIELDS = (
    "name",
    "first_name",
    "last_name",
    "latin_first_name",
    "latin_last_name",
    "ema_id",
    "country",
    "club",
    "team",
    "substitute",
    "status",
)
RECORD_LISTS = ("penalties", "voided_penalties", "incidents", "appeals")


@dataclass(frozen=True)
class Change:
    code: str
    values: dict = field(default_factory=dict)


def _players(data) -> dict:
    return {p.get("key"): p for p in data.get("players") or []}


def _tables(data) -> dict:
    """(session, table) → (seating as ((wind, player), ...), scores or None, draft)."""
    out = {}
    for session in data.get("sessions") or []:
        for table in session.get("tables") or []:
            seats = table.get("seats") or []
            seating = tuple((s.get("wind"), s.get("player")) for s in seats)
            scored = [s for s in seats if s.get("score") is not None]
            scores = (
                tuple((s.get("player"), s.get("score"), s.get("chombo") or 0) for s in scored)
                if scored
                else None
            )
            out[(session.get("number"), table.get("number"))] = (
                seating,
                scores,
                table.get("status") == "draft",
            )
    return out


def _sessions(data) -> list:
    return sorted(s.get("number") for s in data.get("sessions") or [])


def _score_text(scores, names) -> str:
    return " / ".join(f"{names.get(player, player)} {score}" for player, score, _chombo in scores)


def changes(current: dict, incoming: dict) -> list[Change]:
    """Everything `incoming` changes when it replaces `current`, in reading order."""
    out = []
    head_now, head_then = current.get("tournament") or {}, incoming.get("tournament") or {}
    for name in HEAD_FIELDS:
        if head_now.get(name) != head_then.get(name):
            out.append(
                Change(
                    "tournament",
                    {"field": name, "now": head_now.get(name), "then": head_then.get(name)},
                )
            )

    now_players, then_players = _players(current), _players(incoming)
    for key, p in then_players.items():
        if key not in now_players:
            out.append(Change("player_added", {"key": key, "name": p.get("name")}))
    for key, p in now_players.items():
        if key not in then_players:
            out.append(Change("player_removed", {"key": key, "name": p.get("name")}))
            continue
        fields = [f for f in PLAYER_FIELDS if p.get(f) != then_players[key].get(f)]
        if fields:
            out.append(
                Change("player_changed", {"key": key, "name": p.get("name"), "fields": fields})
            )

    now_sessions, then_sessions = _sessions(current), _sessions(incoming)
    for number in then_sessions:
        if number not in now_sessions:
            out.append(Change("session_added", {"session": number}))
    for number in now_sessions:
        if number not in then_sessions:
            out.append(Change("session_removed", {"session": number}))

    now_tables, then_tables = _tables(current), _tables(incoming)
    names = {key: p.get("name") or key for key, p in {**now_players, **then_players}.items()}
    for place in sorted(set(now_tables) | set(then_tables), key=lambda p: (p[0] or 0, p[1] or 0)):
        values = {"session": place[0], "table": place[1]}
        if place not in now_tables:
            out.append(Change("table_added", values))
            continue
        if place not in then_tables:
            out.append(Change("table_removed", values))
            continue
        (seating_now, scores_now, draft_now) = now_tables[place]
        (seating_then, scores_then, draft_then) = then_tables[place]
        if seating_now != seating_then:
            out.append(Change("seating_changed", values))
        if scores_now != scores_then or draft_now != draft_then:
            if scores_then is None:
                out.append(
                    Change("result_removed", {**values, "now": _score_text(scores_now, names)})
                )
            elif scores_now is None:
                out.append(
                    Change("result_added", {**values, "then": _score_text(scores_then, names)})
                )
            else:
                out.append(
                    Change(
                        "result_changed",
                        {
                            **values,
                            "now": _score_text(scores_now, names),
                            "then": _score_text(scores_then, names),
                            "draft_now": draft_now,
                            "draft_then": draft_then,
                        },
                    )
                )

    for name in RECORD_LISTS:
        now, then = current.get(name) or [], incoming.get(name) or []
        if now != then:
            out.append(Change("records", {"kind": name, "now": len(now), "then": len(then)}))
    return out
