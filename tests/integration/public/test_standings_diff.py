"""Issue 39: a phone's refresh of the standings downloads what changed, not the region again.

Through the real URL and database: the page names its live region's tag (data-tag); a refresh
holding the tag now is a 304, an older tag this process kept gets a JSON diff (the rows that
changed, the moves, the ranks by position), which applied exactly as static/desk/desk.js does
(public.cache.regions.apply) gives the region a fresh load draws; an unknown tag gets the whole
region; other sorts, staff and other languages as before."""

import json
import random
import re

import pytest
from django.test import Client

from public.cache import regions
from seating.services import add_table
from tests.support import factories as f

pytestmark = pytest.mark.django_db

E_S_W_N = [40000, 35000, 25000, 20000]


@pytest.fixture
def desk():
    people = f.staff()
    return people["desk1"], people["desk2"]


def page_tag(client, slug, **headers) -> str:
    html = client.get(f"/t/{slug}/", headers=headers).content.decode()
    return re.search(r'data-tag="&quot;([^&]+)&quot;"', html).group(1)


def refresh(client, slug, tag=None, **headers):
    if tag:
        headers["If-None-Match"] = f'"{tag}"'
    return client.get(f"/t/{slug}/?partial=1", headers=headers)


def region(slug, **headers) -> tuple[str, str]:
    """A fresh load of the region (no tag held): its HTML and its tag."""
    r = refresh(Client(), slug, **headers)
    assert r.status_code == 200 and r["Content-Type"].startswith("text/html")
    return r.content.decode(), r["ETag"].strip('"')


def applied(old_html, answer) -> str:
    """What a phone holding `old_html` shows after `answer` (a JSON diff or the whole region)."""
    if answer["Content-Type"].startswith("application/json"):
        return regions.apply(regions.split(old_html), json.loads(answer.content))
    return answer.content.decode()


def test_a_refresh_holding_the_region_now_is_a_304_and_after_a_confirmation_only_its_rows(desk):
    t = f.tournament(players=12, slug="diff-cup")
    first = f.seat_session(t, 1)
    for table in first.tables.all():
        f.play(table, E_S_W_N, *desk)
    second = f.seat_session(t, 2)
    f.play(second.tables.get(number=1), E_S_W_N, *desk)  # session 2's column is in play
    phone = Client()
    tag = page_tag(phone, t.slug)
    before, fresh_tag = region(t.slug)
    assert fresh_tag == tag  # the page and its region name the same content
    quiet = refresh(phone, t.slug, tag)
    assert quiet.status_code == 304 and quiet["ETag"] == f'"{tag}"' and not quiet.content

    # Table 2 of session 2 (p05 East .. p08 North) is confirmed, p08 winning big.
    f.play(second.tables.get(number=2), [10000, 20000, 30000, 60000], *desk)
    news = refresh(phone, t.slug, tag)
    assert news.status_code == 200 and news["Content-Type"] == "application/json"
    diff = json.loads(news.content)
    after, new_tag = region(t.slug)
    assert (diff["from"], diff["to"]) == (tag, new_tag) and news["ETag"] == f'"{new_tag}"'
    # Only the four players of the table confirmed are sent: a rank that moved is not a change.
    assert sorted(diff["rows"]) == ["p05", "p06", "p07", "p08"]
    assert diff["gone"] == [] and "head" not in diff
    assert applied(before, news) == after
    assert len(news.content) * 4 < len(after.encode())
    assert refresh(phone, t.slug, new_tag).status_code == 304


def test_ties_and_moves_come_out_in_the_fresh_order(desk):
    """Two players level on total share a rank (the region's own ranks, by position)."""
    t = f.tournament(players=8, slug="tie-cup")
    first = f.seat_session(t, 1)
    one, two = first.tables.order_by("number")
    f.play(one, E_S_W_N, *desk)
    tag = region(t.slug)[1]
    before = region(t.slug)[0]
    f.play(two, E_S_W_N, *desk)  # the same scores: p05..p08 level with p01..p04
    news = refresh(Client(), t.slug, tag)
    after = region(t.slug)[0]
    assert applied(before, news) == after
    parts = regions.split(after)
    totals = dict(zip(parts.keys, parts.ranks, strict=True))
    assert totals["p01"] == totals["p05"] and totals["p02"] == totals["p06"]
    assert parts.ranks != tuple(str(n) for n in range(1, 9))  # ties: not 1..8


def test_a_substitute_changes_the_tail_and_the_diff_carries_it(desk):
    """000 §5.7: substitutes are not ranked; they are listed apart, below the standings."""
    t = f.tournament(players=7, slug="sub-cup")
    sub = t.players.create(key="sub-a", name="Sub Anna", substitute=True)
    session = f.seat_session(t, 1, groups=[["p01", "p02", "p03", "p04"]])
    players = list(t.players.filter(key__in=["p05", "p06", "p07"]).order_by("key"))
    add_table(session, [*players, sub])
    one, two = session.tables.order_by("number")
    f.play(one, E_S_W_N, *desk)
    before, tag = region(t.slug)
    f.play(two, E_S_W_N, *desk)
    news = refresh(Client(), t.slug, tag)
    after = region(t.slug)[0]
    assert "Sub Anna" in after.split("Substitutes")[1]
    diff = json.loads(news.content)
    assert "tail" in diff and "sub-a" not in diff["rows"]
    assert applied(before, news) == after


def test_an_unknown_tag_gets_the_whole_region(desk):
    t = f.tournament(players=8, slug="unknown-cup")
    f.play(f.seat_session(t, 1).tables.get(number=1), E_S_W_N, *desk)
    whole, tag = region(t.slug)
    r = refresh(Client(), t.slug, "s999-0000-en")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/html")
    assert r.content.decode() == whole and r["ETag"] == f'"{tag}"'


def test_other_sorts_and_staff_are_as_before(desk):
    t = f.tournament(players=8, slug="sorted-cup")
    f.play(f.seat_session(t, 1).tables.get(number=1), E_S_W_N, *desk)
    tag = region(t.slug)[1]
    sorted_page = Client().get(f"/t/{t.slug}/?sort=name").content.decode()
    assert "data-tag" not in sorted_page
    r = Client().get(f"/t/{t.slug}/?sort=name&partial=1", headers={"If-None-Match": f'"{tag}"'})
    assert r.status_code == 200 and r["Content-Type"].startswith("text/html")
    assert r["ETag"].strip('"') != tag  # its ETag is its body's, as before
    staff = f.login(desk[0])
    assert "data-tag" not in staff.get(f"/t/{t.slug}/").content.decode()
    r = staff.get(f"/t/{t.slug}/?partial=1", headers={"If-None-Match": f'"{tag}"'})
    assert r.status_code == 200 and r["Content-Type"].startswith("text/html")
    assert "ETag" not in r and 'data-key="p01"' in r.content.decode()


@pytest.mark.parametrize("language", ["ru", "uk", "pl"])
def test_each_language_has_its_own_region_and_tags(desk, language):
    t = f.tournament(players=8, slug=f"lang-{language}")
    session = f.seat_session(t, 1)
    f.play(session.tables.get(number=1), E_S_W_N, *desk)
    own = {"Accept-Language": language}
    before, tag = region(t.slug, **own)
    assert tag.endswith(f"-{language}") and tag == page_tag(Client(), t.slug, **own)
    english = region(t.slug)[1]
    assert english != tag
    f.play(session.tables.get(number=2), [52000, 28000, 22000, 18000], *desk)
    news = refresh(Client(), t.slug, tag, **own)
    assert news["Content-Type"] == "application/json"
    after = region(t.slug, **own)[0]
    assert applied(before, news) == after
    # A tag of another language is not this region's: the whole region.
    other = refresh(Client(), t.slug, english, **own)
    assert other["Content-Type"].startswith("text/html") and other.content.decode() == after


def test_a_finished_tournament_keeps_the_diff_path(desk):
    t = f.tournament(players=4, slug="final-cup")
    f.play(f.seat_session(t, 1).tables.get(), E_S_W_N, *desk)
    before, tag = region(t.slug)
    from django.utils import timezone

    from tournament.changes import touch

    t.finished_at = timezone.now()
    t.save(update_fields=["finished_at"])
    touch(t.pk)
    page = Client().get(f"/t/{t.slug}/").content.decode()
    assert "Final standings" in page and "Follow your own place" not in page
    r = refresh(Client(), t.slug, tag)
    after = region(t.slug)[0]
    assert r.status_code == 304 if after == before else applied(before, r) == after


def test_applying_any_diff_gives_exactly_the_fresh_region(desk):
    """Property: over random sequences of confirmations (random scores, some tied, sessions
    starting), every tag a phone may hold, diffed to now and applied as the script does, is
    exactly the region a fresh load draws."""
    rng = random.Random(39)
    t = f.tournament(players=16, slug="random-cup")
    held = []  # (tag, region HTML) of every content seen
    kinds = {"application/json": 0, "text/html; charset=utf-8": 0}
    for number in (1, 2, 3):
        session = f.seat_session(t, number)
        tables = list(session.tables.order_by("?"))
        rng.shuffle(tables)
        for table in tables:
            scores = rng.choice(
                [E_S_W_N, [30000] * 4, [60000, 30000, 30000, 0], [40000, 40000, 20000, 20000]]
            )
            f.play(table, rng.sample(scores, 4), *desk)
            now, tag = region(t.slug)
            held.append((tag, now))
            for old_tag, old_html in held:
                answer = refresh(Client(), t.slug, old_tag)
                if old_tag == tag:
                    assert answer.status_code == 304
                    continue
                assert applied(old_html, answer) == now, (number, old_tag)
                kinds[answer["Content-Type"]] += 1
    assert all(kinds.values()), kinds  # diffs, and the whole region where a diff is no smaller


def test_the_player_page_is_a_304_while_other_tables_change_nothing_it_shows(desk):
    """Issue 39, the phone's own page: its place and total, its table, the top 10 of the
    standings and a link to the whole list; a refresh is a 304 unless one of those changed."""
    t = f.tournament(players=56, slug="follow-cup")
    session = f.seat_session(t, 1)  # p01-p04 at table 1, p05-p08 at table 2, ... 14 tables
    for number in range(3, 13):  # the top 10: each table's East, 50,000
        f.play(session.tables.get(number=number), [50000, 35000, 20000, 15000], *desk)
    f.play(session.tables.get(number=2), [40000, 35000, 25000, 20000], *desk)  # p05: 11th
    path = f"/t/{t.slug}/p/p05/?partial=1"
    phone = Client()
    first = phone.get(path)
    html = first.content.decode()
    assert "Rank 11 · " in html and "Top of the standings" in html
    assert f'<a href="/t/{t.slug}/">The whole standings</a>' in html
    assert html.count("Player 09") == 1 and "Player 49" not in html
    tag = first["ETag"]
    standings = Client().get(f"/t/{t.slug}/").content.decode()
    assert f'<a href="/t/{t.slug}/find/">Follow your own place: find your name</a>' in standings

    # Table 1 is confirmed below p05: nothing p05's page shows changed.
    f.play(session.tables.get(number=1), [34000, 30000, 28000, 28000], *desk)
    quiet = phone.get(path, headers={"If-None-Match": tag})
    assert quiet.status_code == 304

    # Table 13: Player 49 leads (the top 10 changes) and p05 drops to 12th.
    f.play(session.tables.get(number=13), [60000, 30000, 20000, 10000], *desk)
    news = phone.get(path, headers={"If-None-Match": tag})
    assert news.status_code == 200
    html = news.content.decode()
    assert "Rank 12 · " in html and "Player 49" in html
    tag = news["ETag"]
    assert phone.get(path, headers={"If-None-Match": tag}).status_code == 304


def synthetic(keys, cells, ranks, tail="") -> str:
    """A region as StandingsTable.body_html and the one-pass template draw it."""
    rows = "".join(
        f'<tr data-key="{k}" class="{regions.parity(i)}"><td class="num rank">{ranks[i]}</td>'
        f'<td class="wrap">{cells[k]}</td></tr>\n'
        for i, k in enumerate(keys)
    )
    head = '<p class="meta">x</p><div class="scroll"><table><thead></thead><tbody >\n'
    return head + rows + "\n</tbody></table></div>" + tail


def test_any_reordering_of_rows_diffed_and_applied_is_the_new_region():
    """Property, without the database: random regions (rows gone, new, changed, reordered,
    ranks tied, the tail changed); the diff applied to the old is exactly the new, and the
    moves are no more than the rows off a longest run kept in order."""
    rng = random.Random(3939)
    for _case in range(300):
        pool = [f"k{n}" for n in range(rng.randrange(1, 40))]
        old_keys = rng.sample(pool, rng.randrange(1, len(pool) + 1))
        new_keys = rng.sample(pool, rng.randrange(1, len(pool) + 1))
        cells = {k: f"v{rng.randrange(3)}" for k in pool}
        changed = {k: f"v{rng.randrange(3)}" for k in pool}
        old_ranks = sorted(rng.randrange(1, 50) for _k in old_keys)
        new_ranks = sorted(rng.randrange(1, 50) for _k in new_keys)
        old = synthetic(old_keys, cells, old_ranks, rng.choice(["", "<h2>T</h2>"]))
        new = synthetic(new_keys, changed, new_ranks, rng.choice(["", "<h2>T</h2>"]))
        before, after = regions.keep(0, "xx", old), regions.keep(0, "xx", new)
        assert regions.join(regions.split(old)) == old
        change = regions.diff(before, after)
        assert regions.apply(regions.split(old), change) == new
        staying = [k for k in new_keys if k in old_keys]
        order = [old_keys.index(k) for k in staying]
        kept = len(regions.longest_increasing(order))
        assert len(change["moves"]) == len(new_keys) - kept
