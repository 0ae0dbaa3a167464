"""What the public pages read of one tournament revision, built once per revision in this
process and kept as long as the cache keeps its token (core.kept), and what the pages make of it
kept with it (`once`, `digest`), on disk too so that it outlives a restart (public.stored). The
views read it; it renders nothing."""

import hashlib
import threading

from core.kept import kept, per_revision
from public import stored
from scoring import selectors
from tournament.models import Tournament


class Hall:
    """What the public pages read of one tournament revision, as objects kept in this process.

    The cache pickles: a player page unpickled the standings and the whole tournament's seating
    five times per request (two thirds of its time at 200 players), and after a confirmation
    every busy thread rendered the same 200-row standings at once (a third of a second each).
    Made once per revision under a lock and read-only afterwards, except what `once` adds.

    Each part is worked out when a page first asks for it (issue 39): the first standings page
    after a restart finds its HTML in the store (public.stored) and asks for none of them. And
    each is kept by what it is made of, not by the revision (the selectors' own keeping): the
    standings by the confirmed results, penalties, players and rules they count; the hand
    statistics by the current hands they count; who sits where by the seating revision and the
    session. A write that changes none of them (a hand at a table whose session the public does
    not see yet, the clock) costs the next page little.
    """

    def __init__(self, tournament: Tournament):
        self.tournament = tournament  # as read for this revision
        self.rendered = {}  # what pages made of this revision (once)
        self.versions = {}  # page -> digest of what it shows (digest)
        self.building = {}  # key -> the lock of whoever makes it
        self.lock = threading.Lock()
        self._parts = {}  # part name -> the part
        self._making = {}  # part name -> the lock of whoever makes it

    def _part(self, name, make):
        """The part `name`, made once (other threads wait for it; one lock per part, as a
        part may ask for another)."""
        found = self._parts.get(name)
        if found is None:
            with self.lock:
                making = self._making.setdefault(name, threading.Lock())
            with making:
                found = self._parts.get(name)
                if found is None:
                    found = self._parts[name] = make()
        return found

    def place(self) -> stored.Place | None:
        """Where the store keeps this revision's parts (public.stored), or None."""
        return self._part("_place", lambda: (stored.place(self.tournament),))[0]

    @property
    def standings(self):
        """mahjong.standings.Standings of the sessions the public sees."""
        return self._part("_standings", lambda: selectors.public_standings(self.tournament))

    @property
    def rows(self) -> dict:
        """Player key -> StandingRow (ranked rows first, then substitutes)."""

        def make():
            data = self.standings
            rows = {}
            for row in data.rows + data.substitutes:
                rows.setdefault(row.player.key, row)
            return rows

        return self._part("_rows", make)

    @property
    def current(self) -> int | None:
        """The session it is now (selectors.session_now)."""
        return self._part("_current", lambda: (selectors.session_now(self.tournament).number,))[0]

    @property
    def live(self) -> bool:
        # A finished tournament's pages stop refreshing, whatever session was seated next.
        t = self.tournament
        return self._part(
            "_live", lambda: (not t.finished and selectors.session_on(t, self.current),)
        )[0]

    @property
    def seating_now(self) -> dict:
        """Table number -> seats of the current session."""
        return self._seats()[0]

    @property
    def seats_now(self) -> dict:
        """Player key -> {"table", "wind", "seats"} in the current session."""
        return self._seats()[1]

    @property
    def tables(self) -> dict:
        """Player key -> session -> seats of the table the player sat at or replaced at."""
        return self._seats()[2]

    def _seats(self):
        t = self.tournament
        return self._part(
            "_seating",
            lambda: per_revision(
                "public-seats",
                t,
                lambda: _seats(selectors.seating(t), self.current),
                revision=f"{t.seating_revision}:{self.current}",
            ),
        )

    @property
    def hands(self):
        """selectors.HandStatistics of the sessions the public sees."""
        t = self.tournament
        return self._part(
            "_hands", lambda: selectors.hand_statistics(t, selectors.released_sessions(t))
        )


RENDERED_MAX = 32  # variants (sort order, language) kept per revision; more are made each time


def kept_hall(key) -> Hall | None:
    """The Hall kept for (pk, revision), if this process still keeps it (core.kept)."""
    return kept("public-hall", "Tournament", *key)


def tournament_hall(tournament) -> Hall:
    """The tournament's Hall for its revision, made once (core.kept: other threads wait for
    it) and kept as long as the cache keeps its token: whatever clears the cache clears it too.
    Requests still on the previous revision while a confirmation lands find theirs kept. Its
    parts are worked out as pages ask for them."""
    return per_revision("public-hall", tournament, lambda: Hall(tournament))


def _seats(seating, current) -> tuple[dict, dict, dict]:
    """(the current session's tables, each player's seat in it, each player's tables by
    session), from the whole seating: kept by the seating revision and the session."""
    seating_now = seating.get(current, {})
    seats_now = {}
    for number, seats in seating_now.items():
        for seat in seats:
            seats_now.setdefault(
                seat["player__key"], {"table": number, "wind": seat["wind"], "seats": seats}
            )
    tables = {}
    for session, session_tables in sorted(seating.items()):
        for seats in session_tables.values():
            keys = {k for s in seats for k in (s["player__key"], s["replaces__key"]) if k}
            for k in keys:
                tables.setdefault(k, {})[session] = seats
    return seating_now, seats_now, tables


def once(hall, key, build):
    """build() once per revision in this process; other threads wait for it, not repeat it.
    Kept on disk too (public.stored), read back after a restart instead of made again: text,
    bytes, numbers and tuples or lists of them; a value of another kind is kept in memory only.

    One lock per key: the feed need not wait while the standings table renders.
    """
    value = hall.rendered.get(key)
    if value is not None:
        return value
    with hall.lock:
        lock = hall.building.get(key)
        if lock is None and len(hall.building) < RENDERED_MAX:
            lock = hall.building[key] = threading.Lock()
    if lock is None:  # more variants than are kept (odd sort orders): made for this one alone
        return build()
    with lock:
        value = hall.rendered.get(key)
        if value is None:
            # After a restart, what was made of this revision before it (public.stored).
            place = hall.place()
            value = place.read(key) if place is not None else None
            if value is None:
                value = build()
                if place is not None:
                    place.write(key, value)
            hall.rendered[key] = value
    return value


def digest(hall, page, shows) -> str:
    """A short digest of `shows()`, what `page` shows of the hall's revision, made once."""
    found = hall.versions.get(page)
    if found is None:
        found_digest = hashlib.blake2b(repr(shows()).encode(), digest_size=12).hexdigest()
        found = hall.versions[page] = f"{page[0]}-{found_digest}"
    return found
