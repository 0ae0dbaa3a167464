"""What a restore changes, as the director reads it: the restore page's rows and the lines of
`manage.py restore`."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from archive.tournament_file import Change
from referee.models import Appeal, Incident
from scoring.models import Penalty

WHAT = {
    "tournament": gettext_lazy("Tournament"),
    "player": gettext_lazy("Player"),
    "session": gettext_lazy("Session"),
    "table": gettext_lazy("Table"),
    "seating": gettext_lazy("Seating"),
    "result": gettext_lazy("Result"),
    "hands": gettext_lazy("Hands"),
    "confirmations": gettext_lazy("Confirmations of hands"),
    "penalty": gettext_lazy("Penalty"),
    "incident": gettext_lazy("Incident"),
    "appeal": gettext_lazy("Appeal"),
}
# How many changes of one kind the restore page lists before "and N more".
PREVIEW_PER_KIND = 20
TEXT_SHOWN = 60  # characters of a note or an appeal's subject shown


def _short(value) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= TEXT_SHOWN else text[: TEXT_SHOWN - 1] + "…"


def _place(values) -> str:
    return _("session %(session)s, table %(table)s") % values


def _record_text(kind: str, record: dict) -> str:
    """A penalty, incident or appeal in a few words: "p03 Anna Nowak, session 2, late arrival,
    5 min"."""
    parts = []
    who = record.get("appellant" if kind == "appeal" else "player")
    if who is not None:
        parts.append(f"{who} {record.get('name') or ''}".strip())
    if record.get("session") is not None:
        parts.append(_("session %(n)s") % {"n": record["session"]})
    if record.get("table") is not None:
        parts.append(_("table %(n)s") % {"n": record["table"]})
    if kind == "penalty" and record.get("kind"):
        parts.append(str(dict(Penalty.Kind.choices).get(record["kind"], record["kind"])))
    elif kind == "incident" and record.get("kind"):
        parts.append(str(dict(Incident.Kind.choices).get(record["kind"], record["kind"])))
    if record.get("minutes") is not None:
        parts.append(_("%(n)s min") % {"n": record["minutes"]})
    if record.get("amount") is not None:
        parts.append(str(record["amount"]))
    if kind == "appeal" and record.get("status"):
        parts.append(str(dict(Appeal.Status.choices).get(record["status"], record["status"])))
    for name in ("subject", "note", "text"):
        if record.get(name):
            parts.append(f"“{_short(record[name])}”")
    if record.get("substitute"):
        parts.append(_("substitute %(key)s") % {"key": record["substitute"]})
    return ", ".join(parts)


def _fields_text(values: dict) -> str:
    return "; ".join(
        f"{name}: {'–' if value in (None, '') else _short(value)}" for name, value in values.items()
    )


def _versions(values) -> str:
    now, then = values.get("version_now"), values.get("version_then")
    if now == then:
        return ""
    return _("version %(now)s here, version %(then)s in the file") % {
        "now": now if now is not None else "–",
        "then": then if then is not None else "–",
    }


def _scores(text, draft) -> str:
    return _("%(scores)s (draft)") % {"scores": text} if draft else text


def _hand_count(n) -> str:
    return ngettext("%(n)d hand", "%(n)d hands", n) % {"n": n}


def _confirmation_count(n) -> str:
    return ngettext("%(n)d confirmation", "%(n)d confirmations", n) % {"n": n}


def _in_play(hands) -> str:
    """A table with no result: in play with its hands, or not played yet."""
    if not hands:
        return ""
    return _("in play, %(hands)s, no result") % {"hands": _hand_count(hands)}


def preview_row(change: Change) -> dict:
    """One change as a row of the restore page's table: what (the kind of thing), which record,
    how it differs, and its value here now and in the file."""
    v = dict(change.values)
    only_here, only_file = _("only here: the restore removes it"), _("only in the file")
    code = change.code
    if code == "tournament":
        return {
            "what": "tournament",
            "record": v["field"],
            "change": _("changed"),
            "here": _short(v["now"]),
            "file": _short(v["then"]),
        }
    if code in ("player_added", "player_removed", "player_changed"):
        row = {"what": "player", "record": f"{v['key']} {v.get('name') or ''}".strip()}
        if code == "player_changed":
            return {
                **row,
                "change": ", ".join(v["fields"]),
                "here": _fields_text(v["now"]),
                "file": _fields_text(v["then"]),
            }
        return {**row, "change": only_file if code == "player_added" else only_here}
    if code in ("session_added", "session_removed"):
        return {
            "what": "session",
            "record": _("session %(n)s") % {"n": v["session"]},
            "change": only_file if code == "session_added" else only_here,
        }
    if code in ("table_added", "table_removed"):
        hands = _hand_count(v["hands"]) if v.get("hands") else ""
        return {
            "what": "table",
            "record": _place(v),
            "change": only_file if code == "table_added" else only_here,
            "here": hands if code == "table_removed" else "",
            "file": hands if code == "table_added" else "",
        }
    if code == "hands_changed":
        return {
            "what": "hands",
            "record": _place(v),
            "change": ngettext(
                "the first %(n)d hand is the same",
                "the first %(n)d hands are the same",
                v["same"],
            )
            % {"n": v["same"]}
            if v["same"]
            else _("differ from the first hand"),
            "here": _hand_count(v["now"]),
            "file": _hand_count(v["then"]),
        }
    if code == "seating_changed":
        return {
            "what": "seating",
            "record": _place(v),
            "change": ", ".join(v["winds"]),
            "here": _fields_text(v["now"]),
            "file": _fields_text(v["then"]),
        }
    if code == "confirmations_changed":
        return {
            "what": "confirmations",
            "record": _place(v),
            "change": _("who confirmed which hand"),
            "here": _confirmation_count(v["now"]),
            "file": _confirmation_count(v["then"]),
        }
    if code in ("result_added", "result_removed", "result_changed"):
        change = _versions(v) or {"result_added": only_file, "result_removed": only_here}.get(
            code, _("scores")
        )
        return {
            "what": "result",
            "record": _place(v),
            "change": change,
            "here": _scores(v["now"], v.get("draft_now"))
            if "now" in v
            else _in_play(v.get("hands_now")),
            "file": _scores(v["then"], v.get("draft_then"))
            if "then" in v
            else _in_play(v.get("hands_then")),
        }
    if code in ("record_added", "record_removed", "record_changed"):
        row = {"what": v["kind"], "record": _record_text(v["kind"], v["record"])}
        if code == "record_changed":
            return {
                **row,
                "change": ", ".join(v["fields"]),
                "here": _fields_text(v["now"]),
                "file": _fields_text(v["then"]),
            }
        return {**row, "change": only_file if code == "record_added" else only_here}
    return {"what": code, "record": _short(v)}


def preview_rows(changes: list, per_kind: int | None = None) -> list[dict]:
    """The restore page's rows: the changes grouped by what they change, at most `per_kind`
    (PREVIEW_PER_KIND) of each, then one row saying how many more there are."""
    per_kind = PREVIEW_PER_KIND if per_kind is None else per_kind
    groups = {}
    for change in changes:
        row = preview_row(change)
        groups.setdefault(row["what"], []).append(row)
    rows = []
    for what, group in groups.items():
        for row in group[:per_kind]:
            rows.append({"here": "", "file": "", **row, "what": WHAT.get(what, what)})
        if len(group) > per_kind:
            more = len(group) - per_kind
            rows.append(
                {
                    "what": WHAT.get(what, what),
                    "record": ngettext("and %(n)d more", "and %(n)d more", more) % {"n": more},
                    "change": "",
                    "here": "",
                    "file": "",
                    "more": True,
                }
            )
    return rows


def describe(change: Change) -> str:
    """One change as a line for `manage.py restore`."""
    row = {"here": "", "file": "", **preview_row(change)}
    text = f"{WHAT.get(row['what'], row['what'])}: {row['record']} — {row['change']}"
    if row["here"] or row["file"]:
        text += f" ({row['here'] or '–'} → {row['file'] or '–'})"
    return text
