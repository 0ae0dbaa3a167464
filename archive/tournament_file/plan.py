"""The import plan: a tournament file read and checked (reader.py), as plain data that
create.py turns into rows. The tournament, players and referee's records are dicts of model
fields; sessions, their tables and the tables' result versions are these."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class Version:
    version: int
    status: str
    entered_by: str | None
    entered_at: datetime | None
    confirmed_by: str | None
    confirmed_at: datetime | None
    superseded_at: datetime | None
    note: str
    scores: list  # (wind, player key, score, chombo)
    by_importer: bool = False


@dataclass
class Table:
    number: int
    seats: list  # (wind, player key, replaces key or None, joined)
    versions: list = field(default_factory=list)
    hands: list = field(default_factory=list)  # the hand objects, in the order played
    confirmed: list = field(default_factory=list)  # per hand: the winds that confirmed it
    winds_drawn: tuple | None = None  # (when, user name or None): winds drawn at the table


@dataclass
class Session:
    number: int
    method: str
    seed: int | None
    ended_at: datetime | None = None
    tables: list = field(default_factory=list)
    length_seconds: int | None = None
    warning_seconds: int | None = None
    clock: list = field(default_factory=list)  # (kind, at, seconds, table, user name)
