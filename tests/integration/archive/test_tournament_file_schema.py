"""The tournament file's JSON Schema: committed as archive/tournament_file/
tournament-file.schema.json for other programs, and true to what the desk writes."""

import json
import re

import pytest

from archive.tournament_file import export_tournament, import_tournament, json_schema
from archive.tournament_file.schema import JSON_SCHEMA_FILE, json_schema_text
from tests.support.hands import (
    README_RIICHI,
    RIICHI_HANDS,
    SICHUAN_HANDS,
    hands_file,
)
from tests.support.tournaments import build_riichi, make_user, source_files
from tournament.models import RuleChange

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

# Keywords that say nothing about validity.
ANNOTATIONS = {"$schema", "title", "description", "default", "format"}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def problems(schema: dict, value, path="") -> list[str]:
    """Where `value` breaks `schema`: the keywords json_schema() writes, and no others (a new
    keyword fails here until this checker knows it; jsonschema is not a dependency)."""
    if schema is False:  # JSON Schema's "nothing is allowed here" (no other key)
        return [f"{path}: is not allowed"]
    out = []
    for word, want in schema.items():
        if word in ANNOTATIONS or word in ("properties", "required", "additionalProperties"):
            continue
        if word == "type":
            kinds = want if isinstance(want, list) else [want]
            if not any(TYPES[k](value) for k in kinds):
                return [f"{path}: {value!r} is not {want}"]
        elif word == "enum":
            if not any(value == w and type(value) is type(w) for w in want):
                out.append(f"{path}: {value!r} not in {want}")
        elif word == "const":
            if value != want or type(value) is not type(want):
                out.append(f"{path}: {value!r} is not {want!r}")
        elif word == "anyOf":
            if all(problems(option, value, path) for option in want):
                out.append(f"{path}: {value!r} matches none of {want}")
        elif word in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                holds = {
                    "minimum": value >= want,
                    "maximum": value <= want,
                    "exclusiveMinimum": value > want,
                    "exclusiveMaximum": value < want,
                }[word]
                if not holds:
                    out.append(f"{path}: {value!r} breaks {word} {want}")
        elif word in ("maxLength", "pattern"):
            if isinstance(value, str):
                if word == "maxLength" and len(value) > want:
                    out.append(f"{path}: longer than {want}")
                if word == "pattern" and not re.search(want, value):
                    out.append(f"{path}: {value!r} does not match {want}")
        elif word in ("minItems", "maxItems"):
            if isinstance(value, list):
                if word == "minItems" and len(value) < want:
                    out.append(f"{path}: fewer than {want} items")
                if word == "maxItems" and len(value) > want:
                    out.append(f"{path}: more than {want} items")
        elif word == "items":
            if isinstance(value, list):
                for i, item in enumerate(value):
                    out += problems(want, item, f"{path}[{i}]")
        else:
            raise AssertionError(f"the checker does not know {word!r}")
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                out.append(f"{path}.{name}: is required")
        for name, item in value.items():
            if name in schema.get("properties", {}):
                out += problems(schema["properties"][name], item, f"{path}.{name}")
            elif "additionalProperties" in schema:
                out += problems(schema["additionalProperties"], item, f"{path}.{name}")
    return out


def test_the_committed_schema_is_what_json_schema_writes():
    """After changing schema.py: python manage.py shell -c "from archive.tournament_file.schema
    import write_json_schema; write_json_schema()"."""
    assert JSON_SCHEMA_FILE.read_text(encoding="utf-8") == json_schema_text()
    assert json.loads(json_schema_text()) == json_schema()
    assert json_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def written(data: dict) -> dict:
    """The file as another program reads it (TextChoices members become plain text)."""
    return json.loads(json.dumps(data))


def test_exported_files_satisfy_the_schema():
    files = source_files()
    t = build_riichi()
    RuleChange.objects.create(
        tournament=t,
        changed_by=make_user("dir"),
        old_ruleset="ema-2012",
        new_ruleset="ema-2012",
        new_rules=t.rules,
        reason="chombo after uma, as announced",
    )
    files["history"] = export_tournament(t)
    riichi = [json.loads(line) for line in README_RIICHI.strip().splitlines()]
    files["riichi hands"] = export_tournament(import_tournament(hands_file(hands=riichi)))
    sichuan = hands_file("sbr-2025", hands=SICHUAN_HANDS)
    sichuan["tournament"]["slug"] = "sichuan-hands"
    files["sichuan hands"] = export_tournament(import_tournament(sichuan))
    for name, data in files.items():
        assert problems(json_schema(), written(data)) == [], name
    # Between them the files have every list the schema describes.
    for part in ("penalties", "voided_penalties", "incidents", "appeals", "rule_changes"):
        assert any(data[part] for data in files.values()), part
    assert files["sichuan hands"]["sessions"][0]["tables"][0]["hands"] == SICHUAN_HANDS


def hands_data():
    return written(hands_file(hands=RIICHI_HANDS))


def sichuan_data():
    return written(hands_file("sbr-2025", hands=SICHUAN_HANDS))


@pytest.mark.parametrize(
    "make, change, where",
    [
        (hands_data, lambda h: h[0].update(result="pass"), "[0]"),
        (hands_data, lambda h: h[0]["wins"][0].update(fu=35), "[0]"),
        (hands_data, lambda h: h[1].update(tenpai=["X"]), "[1]"),
        (hands_data, lambda h: h[2].update(dealer="E"), "[2]"),
        (sichuan_data, lambda h: h[0]["events"][0].update(kong="closed"), "[0]"),
        (sichuan_data, lambda h: h[1]["exhausted"].update(S="asleep"), "[1]"),
        (hands_data, lambda h: h.extend([{"result": "abortive"}] * 200), ""),
    ],
)
def test_the_schema_describes_the_hands(make, change, where):
    """The hands of both games satisfy the schema; a hand the arithmetic would refuse for its
    shape breaks it, at that hand."""
    data = make()
    assert problems(json_schema(), data) == []
    change(data["sessions"][0]["tables"][0]["hands"])
    found = problems(json_schema(), data)
    prefix = f".sessions[0].tables[0].hands{where}"
    assert found and all(p.startswith(prefix) for p in found), found


@pytest.mark.parametrize(
    "change, where",
    [
        (lambda d: d.update(format="other"), ".format"),
        (lambda d: d["players"][0].update(status="gone"), ".players[0].status"),
        (lambda d: d["players"][0].pop("key"), ".players[0].key"),
        (lambda d: d["players"][0].update(ema_id="123"), ".players[0].ema_id"),
        (lambda d: d["players"][0].update(name="x" * 201), ".players[0].name"),
        (lambda d: d["sessions"][0].update(number=0), ".sessions[0].number"),
        (lambda d: d["tournament"].update(ruleset="mcr"), ".tournament.ruleset"),
        (lambda d: d["tournament"].update(fee=-1), ".tournament.fee"),
        (lambda d: d["penalties"][0].update(kind="yellow card"), ".penalties[0].kind"),
        (lambda d: d["appeals"][0].update(decided_by="judge"), ".appeals[0].decided_by"),
        (lambda d: d["voided_penalties"][0].pop("voided_at"), ".voided_penalties[0].voided_at"),
    ],
)
def test_the_schema_refuses_what_the_desk_refuses(change, where):
    data = written(source_files()["riichi"])
    change(data)
    found = problems(json_schema(), data)
    assert found and all(p.startswith(where) for p in found), found
