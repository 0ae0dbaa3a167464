"""What a restore would change: two tournament files (dicts, format version 1) compared.

Plain Python, no Django: `changes(current, incoming, planned)` returns `Change` records with a
code and their values; the desk turns each code into a sentence (or a row of the restore page's
table) in the director's language. Every record is compared, not only counted: a penalty,
incident or appeal is matched with its counterpart by who, which session and when it was
recorded, and is then either only here, only in the file, or changed in named fields. A table is
compared by its seating, its result (the confirmed version, else the newest draft: scores, draft
or not, newest version) and its current hands; a table in play has hands and no result.
"""

import json
from dataclasses import dataclass, field

from people.models import NAMED_FIELDS

# Head fields a director would notice; the rest of `tournament` is compared as a whole.
HEAD_FIELDS = (
    "name",
    "ruleset",
    "rules",
    "sessions",
    "fee",
    "start_date",
    "venue",
    "scope",
    "release_by_session",
    "mers_qualification",
    "finished_at",
)
PLAYER_FIELDS = (
    *NAMED_FIELDS,
    "team",
    "substitute",
    "status",
)
# The referee's records: the lists a kind reads (a penalty voided since is the same penalty,
# listed in `voided_penalties`), and what identifies one record across two files.
RECORD_KINDS = {
    "penalty": (("penalties", "voided_penalties"), ("session", "player", "kind", "recorded_at")),
    "incident": (("incidents",), ("kind", "session", "player", "recorded_at")),
    "appeal": (("appeals",), ("session", "appellant", "filed_at")),
}
# Fields of a record that say what it is, for the page (the rest only count as changes).
RECORD_LABELS = {
    "penalty": ("session", "table", "player", "kind", "minutes", "amount", "note"),
    "incident": ("session", "table", "player", "kind", "substitute", "text"),
    "appeal": ("session", "table", "appellant", "subject", "status"),
}


@dataclass(frozen=True)
class Change:
    code: str
    values: dict = field(default_factory=dict)


def _players(data) -> dict:
    return {p.get("key"): p for p in data.get("players") or []}


def _hands(hands) -> tuple:
    """A table's hands, comparable: each as its JSON with sorted keys (the order of a hand's
    keys is not a difference)."""
    return tuple(json.dumps(hand, sort_keys=True) for hand in hands or [])


def _confirmed(lists) -> frozenset:
    """(hand number, wind) of each confirmation of a table's hands."""
    return frozenset(
        (number, wind)
        for number, winds in enumerate(lists or [], start=1)
        if isinstance(winds, list | tuple)
        for wind in winds
    )


def _tables(data) -> dict:
    """(session, table) → (seating as ((wind, player), ...), scores or None, draft, newest
    version or None, hands, confirmations of the hands) of a file as it is written: the desk's
    own export."""
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
            versions = [v.get("version") for v in table.get("history") or []]
            out[(session.get("number"), table.get("number"))] = (
                seating,
                scores,
                table.get("status") == "draft",
                max((v for v in versions if isinstance(v, int)), default=None),
                _hands(table.get("hands")),
                _confirmed(table.get("hands_confirmed")),
            )
    return out


def _planned_tables(sessions) -> dict:
    """The same as _tables, of the tables a restore creates: the reader's plan (plan.Session),
    where a table's scores are those its hands gave when its seats had none, a table without a
    history has its version 1, and a table in play (status playing) has no result."""
    out = {}
    for session in sessions:
        for table in session.tables:
            current = next((v for v in table.versions if v.status == "confirmed"), None)
            if current is None:
                drafts = [v for v in table.versions if v.status == "draft"]
                current = drafts[-1] if drafts else None
            scores = (
                tuple((key, score, chombo) for _w, key, score, chombo in current.scores)
                if current is not None
                else None
            )
            out[(session.number, table.number)] = (
                tuple((wind, key) for wind, key, _r, _j in table.seats),
                scores,
                current is not None and current.status == "draft",
                max((v.version for v in table.versions), default=None),
                _hands(table.hands),
                _confirmed(table.confirmed),
            )
    return out


def _sessions(data) -> list:
    return sorted(s.get("number") for s in data.get("sessions") or [])


def _score_text(scores, names) -> str:
    return " / ".join(f"{names.get(player, player)} {score}" for player, score, _chombo in scores)


def _records(data, lists) -> list:
    return [r for name in lists for r in data.get(name) or [] if isinstance(r, dict)]


def _label(kind, record, names) -> dict:
    """What the page says of a record: its identifying fields, and the player's name."""
    label = {n: record.get(n) for n in RECORD_LABELS[kind] if record.get(n) not in ("", None)}
    who = record.get("appellant" if kind == "appeal" else "player")
    if who is not None:
        label["name"] = names.get(who, who)
    return label


def _record_changes(kind, now: list, then: list, names: dict) -> list:
    """One kind's records compared one by one: matched by identity (several with the same
    identity in the order listed), then each left over is only here or only in the file."""
    lists, identity = RECORD_KINDS[kind]

    def grouped(records):
        out = {}
        for record in records:
            key = tuple(repr(record.get(name)) for name in identity)
            out.setdefault(key, []).append(record)
        return out

    now_by, then_by = grouped(now), grouped(then)
    out = []
    for key in list(now_by) + [k for k in then_by if k not in now_by]:
        here, there = now_by.get(key, []), then_by.get(key, [])
        for a, b in zip(here, there, strict=False):
            fields = sorted(name for name in set(a) | set(b) if a.get(name) != b.get(name))
            if fields:
                out.append(
                    Change(
                        "record_changed",
                        {
                            "kind": kind,
                            "record": _label(kind, b, names),
                            "fields": fields,
                            "now": {name: a.get(name) for name in fields},
                            "then": {name: b.get(name) for name in fields},
                        },
                    )
                )
        for a in here[len(there) :]:
            out.append(Change("record_removed", {"kind": kind, "record": _label(kind, a, names)}))
        for b in there[len(here) :]:
            out.append(Change("record_added", {"kind": kind, "record": _label(kind, b, names)}))
    return out


def changes(current: dict, incoming: dict, planned=None) -> list[Change]:
    """Everything `incoming` changes when it replaces `current`, in reading order. `planned`:
    the sessions of the reader's plan of `incoming` (reader.Reader.sessions), whose tables are
    what the restore creates (a file's table with hands and no scores gets the hands' scores);
    without it the tables are compared as written."""
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
                Change(
                    "player_changed",
                    {
                        "key": key,
                        "name": p.get("name"),
                        "fields": fields,
                        "now": {f: p.get(f) for f in fields},
                        "then": {f: then_players[key].get(f) for f in fields},
                    },
                )
            )

    now_sessions, then_sessions = _sessions(current), _sessions(incoming)
    for number in then_sessions:
        if number not in now_sessions:
            out.append(Change("session_added", {"session": number}))
    for number in now_sessions:
        if number not in then_sessions:
            out.append(Change("session_removed", {"session": number}))

    now_tables = _tables(current)
    then_tables = _tables(incoming) if planned is None else _planned_tables(planned)
    names = {key: p.get("name") or key for key, p in {**now_players, **then_players}.items()}
    for place in sorted(set(now_tables) | set(then_tables), key=lambda p: (p[0] or 0, p[1] or 0)):
        values = {"session": place[0], "table": place[1]}
        if place not in now_tables:
            out.append(Change("table_added", {**values, "hands": len(then_tables[place][4])}))
            continue
        if place not in then_tables:
            out.append(Change("table_removed", {**values, "hands": len(now_tables[place][4])}))
            continue
        now, then = now_tables[place], then_tables[place]
        (seating_now, scores_now, draft_now, version_now, hands_now, confirmed_now) = now
        (seating_then, scores_then, draft_then, version_then, hands_then, confirmed_then) = then
        if seating_now != seating_then:
            seats_now, seats_then = dict(seating_now), dict(seating_then)
            winds = [w for w in ("E", "S", "W", "N") if seats_now.get(w) != seats_then.get(w)]
            out.append(
                Change(
                    "seating_changed",
                    {
                        **values,
                        "winds": winds,
                        "now": {w: names.get(seats_now.get(w), seats_now.get(w)) for w in winds},
                        "then": {w: names.get(seats_then.get(w), seats_then.get(w)) for w in winds},
                    },
                )
            )
        if hands_now != hands_then:
            same = 0
            for a, b in zip(hands_now, hands_then, strict=False):
                if a != b:
                    break
                same += 1
            out.append(
                Change(
                    "hands_changed",
                    {**values, "now": len(hands_now), "then": len(hands_then), "same": same},
                )
            )
        if confirmed_now != confirmed_then:
            out.append(
                Change(
                    "confirmations_changed",
                    {**values, "now": len(confirmed_now), "then": len(confirmed_then)},
                )
            )
        versions = {"version_now": version_now, "version_then": version_then}
        differ = (scores_now, draft_now, version_now) != (scores_then, draft_then, version_then)
        if differ and (scores_now is not None or scores_then is not None):
            if scores_then is None:
                out.append(
                    Change(
                        "result_removed",
                        {
                            **values,
                            **versions,
                            "now": _score_text(scores_now, names),
                            "draft_now": draft_now,
                            "hands_then": len(hands_then),  # in play in the file when any
                        },
                    )
                )
            elif scores_now is None:
                out.append(
                    Change(
                        "result_added",
                        {
                            **values,
                            **versions,
                            "then": _score_text(scores_then, names),
                            "draft_then": draft_then,
                            "hands_now": len(hands_now),  # in play here when any
                        },
                    )
                )
            else:
                out.append(
                    Change(
                        "result_changed",
                        {
                            **values,
                            **versions,
                            "now": _score_text(scores_now, names),
                            "then": _score_text(scores_then, names),
                            "draft_now": draft_now,
                            "draft_then": draft_then,
                        },
                    )
                )

    for kind, (lists, _identity) in RECORD_KINDS.items():
        out += _record_changes(kind, _records(current, lists), _records(incoming, lists), names)
    return out
