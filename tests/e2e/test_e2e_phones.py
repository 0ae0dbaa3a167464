"""Issue 23: every page a player or a referee opens fits a phone, the desk's fit a laptop.

A tournament with the names a real field has (long double-barrelled names, a surname with no
break in it, long club and team names, a long tournament name), two sessions, penalties,
incidents and appeals with long texts. Headless Chromium opens every page in PAGES at the widths
(and in the languages) given there, with everything folded away unfolded, and checks that
nothing goes sideways: the page is no wider than the window (document.documentElement
.scrollWidth), no table hides columns in a box that scrolls sideways, and no name is cut with an
ellipsis. At 1366 px the director's menu keeps one row; the projector at 1920×1080 shows every
name of its seating list in full, and a phone the whole list at once.
"""

import itertools
import os
import re
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from core.roles import DIRECTOR, HEAD_REFEREE, REFEREE
from referee.models import Appeal, Incident
from scoring.models import Penalty
from seating.models import SeatingPlan
from seating.services import add_table
from tests.support import e2e_support as e2e
from tests.support import factories as f
from tournament.changes import touch
from tournament.models import Player, Session, Tournament

browser = e2e.browser
new_context = e2e.new_context

expect = pytest.importorskip("playwright.sync_api").expect

PHONES = (360, 390)
LAPTOP = (1366,)
PROJECTOR = (1920,)
HEIGHT = {360: 740, 390: 844, 1366: 768, 1920: 1080}
SLUG = "krakow-cup"
CLUB_SLUG = "czerwony-smok-krakow"  # the club rating of the publishing pages (issue 38)

# Every page checked, in one place: (who is logged in, address, widths, languages). None: a
# visitor. "chief" is a referee who is also head referee; "director" the director's account as
# manage.py serve makes it (a superuser: the menu has the admin's link too). ALL: also in
# Ukrainian, Russian and Polish, whose labels run longer than the English ones.
EN = ("en",)
ALL = ("en", "uk", "ru", "pl")
PAGES = [
    (None, "/", PHONES, EN),
    (None, "/t/{slug}/", PHONES, EN),
    (None, "/t/{slug}/find/?q=Oleksandra", PHONES, EN),
    (None, "/t/{slug}/find/?q=a", PHONES, EN),
    (None, "/t/{slug}/p/p01/", PHONES, ALL),
    (None, "/t/{slug}/p/s01/", PHONES, EN),
    (None, "/t/{slug}/clock/", PHONES + PROJECTOR, EN),
    ("chief", "/desk/", PHONES, EN),
    ("chief", "/referee/{slug}/?session=2&q=Shevchenko", PHONES, EN),
    ("chief", "/referee/{slug}/?session=1", PHONES, EN),
    ("chief", "/referee/{slug}/s/2/t/1/", PHONES, ALL),
    ("chief", "/referee/{slug}/s/2/t/2/", PHONES, EN),
    ("chief", "/referee/{slug}/log/", PHONES, EN),
    ("chief", "/referee/{slug}/log/?void=1", PHONES, ALL),
    ("chief", "/referee/{slug}/appeals/", PHONES, EN),
    ("chief", "/referee/{slug}/appeals/new/", PHONES, EN),
    ("chief", "/referee/{slug}/appeals/{appeal}/", PHONES, EN),
    ("director", "/referee/{slug}/s/2/t/1/", PHONES, EN),
    ("director", "/referee/{slug}/log/?void=1", PHONES + LAPTOP, EN),
    ("director", "/referee/{slug}/appeals/", LAPTOP, EN),
    ("director", "/referee/{slug}/appeals/{appeal}/", LAPTOP, EN),
    ("director", "/desk/", LAPTOP, EN),
    ("director", "/desk/{slug}/", LAPTOP, EN),
    ("director", "/desk/{slug}/finish/", LAPTOP, ALL),
    ("director", "/desk/{slug}/players/", LAPTOP, EN),
    ("director", "/desk/{slug}/checkin/", LAPTOP, EN),
    ("director", "/desk/{slug}/s/1/", LAPTOP, EN),
    ("director", "/desk/{slug}/s/2/", LAPTOP, EN),
    ("director", "/desk/{slug}/s/1/t/1/", LAPTOP, ALL),
    ("director", "/desk/{slug}/s/2/t/2/", LAPTOP, EN),
    ("director", "/desk/{slug}/s/2/t/1/hands/", LAPTOP, EN),
    ("director", "/desk/{slug}/s/2/clock/", LAPTOP, EN),
    ("director", "/desk/{slug}/plans/", LAPTOP, EN),
    ("director", "/desk/{slug}/rules/", LAPTOP, EN),
    ("director", "/desk/{slug}/backups/", LAPTOP, EN),
    # Issue 38: the publishing pages (linked from the tournament's and the club's dashboards), a
    # failing publication's status with a long address and error, looked at on a phone too.
    ("director", "/desk/{slug}/publish/", PHONES, ALL),
    ("director", "/desk/{slug}/publish/", LAPTOP, EN),
    ("officer", f"/desk/club/{CLUB_SLUG}/publish/", PHONES, EN),
    # The standby desk's page (a main desk's side: what it sends, the pairing form).
    ("director", "/desk/standby/", PHONES, EN),
    ("director", "/desk/standby/", LAPTOP, EN),
]
# Pages whose screenshots are kept (in PHONE_SHOTS, when it is set) to look at, not only measure.
SHOTS = {
    "/t/{slug}/",
    "/t/{slug}/p/p01/",
    "/referee/{slug}/?session=1",
    "/referee/{slug}/s/2/t/1/",
    "/referee/{slug}/log/?void=1",
    "/referee/{slug}/appeals/",
    "/desk/",
    "/desk/{slug}/",
    "/desk/{slug}/s/2/",
    "/desk/{slug}/players/",
    "/t/{slug}/clock/",
    "/desk/{slug}/publish/",
    f"/desk/club/{CLUB_SLUG}/publish/",
}

NAMES = [  # the 14th has a surname with no break in it: only overflow-wrap can fold it
    "Oleksandra Khrystyna Shevchenko-Kovalenko",
    "Maximilian Alexander von Hohenzollern-Sigmaringen",
    "Zbigniew Krzysztof Brzęczyszczykiewicz",
    "Анастасія Олександрівна Костянтинівська-Гребенюк",
    "Jean-Baptiste Emmanuel de La Rochefoucauld-Liancourt",
    "Małgorzata Świątek-Ćwikłińska",
    "Guðmundur Þórarinn Sigurðsson",
    "Fumiko Takahashi-Yamamoto",
    "Aleksandr Vladimirovich Rimsky-Korsakov",
    "Anna Nowak",
    "Bartosz Żak",
    "Eva Novák",
    "Dmytro Koval",
    "Hubert Blaine Wolfeschlegelsteinhausenbergerdorff",
    "Hiro Tanaka",
    "Wolfgang Amadeus Schwarzenberg-Lichtenstein",
]
CLUBS = [
    "Stowarzyszenie Miłośników Gry Mahjong Riichi «Czerwony Smok» Kraków",
    "Київський міський клуб спортивного маджонгу «Золотий дракон»",
    "Mahjong-Sportverein Nordrhein-Westfalen Düsseldorf e.V.",
    "",
]


def build():
    """The tournament PAGES are read on; returns the id of the appeal whose page is checked."""
    staff = f.staff()
    chief = f.user("chief", REFEREE)
    chief.groups.add(Group.objects.get(name=HEAD_REFEREE))
    director = f.user("director", DIRECTOR)
    director.is_staff = director.is_superuser = True
    director.save()
    t = Tournament.objects.create(
        name="Międzynarodowy Turniej Riichi Mahjong o Puchar Prezydenta Miasta Krakowa 2026",
        slug=SLUG,
        ruleset="ema-2012",
        planned_sessions=8,
        venue="Centrum Kongresowe ICE Kraków, sala konferencyjna Audytorium Maximum",
        scope=Tournament.Scope.TEAM,
    )
    players = []
    for n, name in enumerate(NAMES, start=1):
        players.append(
            Player.objects.create(
                tournament=t,
                key=f"p{n:02d}",
                name=name,
                ema_id=f"0700{n:04d}",
                country=["POL", "UKR", "DEU", "JPN"][n % 4],
                club=CLUBS[n % 4],
                team=["Drużyna Północno-Wschodnia", "Команда «Південний вітер»"][n % 2],
                checked_in=n <= 12,
            )
        )
    Player.objects.create(
        tournament=t,
        key="s01",
        name="Christoph Maria Ferdinand Hohenlohe-Schillingsfürst",
        club=CLUBS[0],
        substitute=True,
    )
    Player.objects.create(
        tournament=t, key="s02", name="Sam Substitute-Reserveplayer", substitute=True
    )
    desk1, desk2 = staff["desk1"], staff["desk2"]
    f.grant(chief, t)  # the referee's and head referee's roles on this tournament (issue 34)
    s1 = Session.objects.create(tournament=t, number=1)
    for start in range(0, 16, 4):
        table = add_table(s1, players[start : start + 4])
        f.play(table, [45300, 30100, 25000, 19600], desk1, desk2)
    s2 = Session.objects.create(tournament=t, number=2)
    order = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]
    for start in range(0, 16, 4):
        add_table(s2, [players[i] for i in order[start : start + 4]])
    f.play(s2.tables.get(number=1), [52000, 31000, 22000, 15000], desk1, desk2)
    f.play(s2.tables.get(number=2), [40000, 35000, 25000, 20000], desk1, None)
    Session.objects.filter(pk=s1.pk).update(ended_at=timezone.now() - timedelta(minutes=90))

    now = timezone.now()
    made = {"recorded_by": staff["referee"], "recorded_at": now - timedelta(minutes=100)}
    t11, t21 = s1.tables.get(number=1), s2.tables.get(number=1)
    p = {player.key: player for player in t.players.all()}
    Penalty.objects.create(session=s1, player=p["p01"], kind="late", minutes=8, table=t11, **made)
    wrong = Penalty.objects.create(
        session=s1,
        player=p["p02"],
        kind="misconduct",
        amount=Decimal(-12000),
        note="talked to the neighbouring table about the hand in progress, twice",
        table=t11,
        **made,
    )
    Penalty.objects.filter(pk=wrong.pk).update(
        voided_by=staff["director"],
        voided_at=now - timedelta(minutes=80),
        void_reason="it was the player at the next table, Wolfgang Schwarzenberg",
    )
    Penalty.objects.create(session=s1, player=p["p05"], kind="chombo", **made)
    Penalty.objects.create(
        session=s2,
        player=p["p16"],
        kind="other",
        amount=Decimal("-500"),
        stage="before",
        note="mobile telephone rang during the hand; second warning of the day",
        table=t21,
        **made,
    )
    Incident.objects.create(
        tournament=t,
        session=s2,
        table=t21,
        kind="note",
        player=p["p01"],
        text="a tile fell from the wall and was seen by all four players; replaced from the "
        "dead wall after consulting the head referee",
        **made,
    )
    Incident.objects.create(
        tournament=t,
        kind="disqualification",
        player=p["p15"],
        text="left the hall without notice before the end of the session",
        undo={"status": "active"},
        **made,
    )
    appeal = Appeal.objects.create(
        tournament=t,
        session=s1,
        table=t11,
        appellant=p["p02"],
        penalty=wrong,
        subject="misconduct penalty given to the wrong player at table 1",
        text="I did not speak during the hand; it was the player at the neighbouring table, "
        "as the two other players at my table can confirm.",
        filed_at=now - timedelta(minutes=85),
        deposit=Decimal("12.50"),
        status="upheld",
        decided_by="arbitration committee",
        decision="void the penalty and return the deposit",
        decided_at=now - timedelta(minutes=80),
        deposit_returned=True,
        recorded_by=staff["referee"],
    )
    Appeal.objects.create(
        tournament=t,
        session=s2,
        appellant=p["p05"],
        subject="chombo for a wrong declaration of riichi with a dead wait",
        filed_at=now - timedelta(minutes=10),
        recorded_by=staff["director"],
    )
    SeatingPlan.objects.create(
        tournament=t,
        first=3,
        last=8,
        seed=8127364519,
        status=SeatingPlan.Status.DONE,
        figures={"extra_meetings": 4, "seconds": 12.5, "steps": 120000},
        created_by=staff["director"],
    )
    publications(t)
    touch(t.pk)  # and a backup, so the backups page has a row
    return appeal.pk


def publications(t):
    """Issue 38: the tournament and a club rating published to a federation server whose
    address is long, the tournament's failing for an hour with the longest kind of error; the
    club's officer ("officer") is the one who opens the club's page."""
    from club.services.clubs import save_club
    from core.roles import CLUB_OFFICER
    from publishing.models import Publication

    officer = f.user("officer", CLUB_OFFICER)
    club = save_club(None, {"name": CLUBS[0], "slug": CLUB_SLUG}, officer)
    f.grant(officer, club)
    now = timezone.now()
    # On this machine (the live server's sender tries it: refused at once, no name to look up).
    server = "http://localhost:9/wyniki-na-zywo/polska-federacja-mahjonga-riichi/turnieje-2026"
    error = (
        '{"message": "No answer from %(host)s: %(reason)s", "params": {"host": '
        '"localhost:9", "reason": "[Errno 111] Connection refused"}}'
    )
    Publication.objects.create(
        kind="tournament",
        slug=t.slug,
        url=server,
        key="42.Xk3vQ9pLm2Rt7Yw8Zb1Nc4Df6Gh0Js5",
        enabled=True,
        revision=1234,
        sent_revision=1187,
        changed_at=now,
        sent_at=now - timedelta(minutes=61),
        heard_at=now - timedelta(minutes=61),
        failing_since=now - timedelta(minutes=60),
        last_error=error,
    )
    Publication.objects.create(
        kind="club",
        slug=club.slug,
        url=server,
        key="43.Pq7Wn2Lk9Vb3Xc5Zr8Ty1Um4Hg6Jd0",
        enabled=True,
        revision=88,
        sent_revision=88,
        changed_at=now,
        sent_at=now,
        heard_at=now,
    )


# What is too wide: the page, what sticks out of the window (the outermost elements), and what
# is hidden inside a box: a table scrolling sideways in its own box, a name cut by an ellipsis.
OVERFLOW = """() => {
  const width = window.innerWidth;
  const describe = el => {
    const classes = typeof el.className === "string" ? el.className.split(/\\s+/) : [];
    const text = (el.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    return [el.tagName.toLowerCase(), ...classes.filter(Boolean)].join(".")
      + (el.id ? "#" + el.id : "") + " '" + text + "'";
  };
  const out = [], hidden = [];
  for (const el of document.body.querySelectorAll("*")) {
    const right = el.getBoundingClientRect().right;
    if (right > width + 0.5 && !out.some(o => o.contains(el))) out.push(el);
    const style = getComputedStyle(el);
    if (style.display === "none" || el.clientWidth <= 1) continue;  // .sr-only
    if (el.tagName === "INPUT") continue;  // a value longer than its field scrolls in it, as typed
    const clips = style.overflowX !== "visible" || style.textOverflow === "ellipsis";
    if (clips && el.scrollWidth > el.clientWidth + 1)
      hidden.push(el.scrollWidth + " px in " + el.clientWidth + ": " + describe(el));
  }
  return {
    page: document.documentElement.scrollWidth,
    out: out.slice(0, 4).map(el => "to " + Math.round(el.getBoundingClientRect().right)
      + ": " + describe(el)),
    hidden,
  };
}"""

# On one line: every item of the top bar overlaps the first one's height.
MENU_LINES = """() => {
  const items = [...document.querySelectorAll("header.top nav > *")]
    .filter(el => el.getBoundingClientRect().width > 0);
  const first = items[0].getBoundingClientRect();
  return items.filter(el => el.getBoundingClientRect().top >= first.bottom)
    .map(el => (el.innerText || el.tagName).trim());
}"""


def problems(page, where, who, width):
    """What is too wide on the page now, as lines for the failure message."""
    found = page.evaluate(OVERFLOW)
    lines = []
    if found["page"] > width:
        lines.append(f"{where}: page {found['page']} px wide")
        lines += [f"    {el}" for el in found["out"]]
    lines += [f"{where}: cut: {box}" for box in found["hidden"]]
    if who == "director" and width in LAPTOP:
        wrapped = page.evaluate(MENU_LINES)
        if wrapped:
            lines.append(f"{where}: the menu wraps before {wrapped}")
    return lines


@pytest.mark.long(80)
@pytest.mark.django_db(transaction=True)
def test_every_page_fits_its_screen(new_context):
    appeal = build()
    shots = os.environ.get("PHONE_SHOTS")  # a folder: keep screenshots of the SHOTS pages
    pages = {}
    failures = []
    for who, template, widths, languages in PAGES:
        path = template.format(slug=SLUG, appeal=appeal)
        for width, language in itertools.product(widths, languages):
            key = who, width, language
            if key not in pages:
                context = new_context(viewport={"width": width, "height": HEIGHT[width]})
                pages[key] = e2e.log_in(context, who) if who else context.new_page()
                pages[key].goto(f"/language/?language={language}&next=/")
            page = pages[key]
            response = page.goto(path)
            assert response.ok, (path, response.status)
            if page.locator(".mini-clock").count():  # the public top bar's clock, once it has asked
                expect(page.locator(".mini-clock")).to_be_visible()
            # what is folded away is measured open: the referee's forms, the user's menu
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            if template == "/t/{slug}/clock/":
                expect(page.locator("[data-clock-seating]")).to_be_visible()  # paged by now
                shown = page.locator(".seating-columns li:visible").count()
                if width in PHONES and shown < 16:  # the page scrolls: every name at once
                    failures.append(f"{path} @{width}: the seating shows {shown} names of 16")
            where = f"{who or 'visitor'} {path} @{width} {language}"
            failures += problems(page, where, who, width)
            if shots and template in SHOTS and language == "en":
                page.evaluate("document.querySelector('details.account')?.removeAttribute('open')")
                name = f"{who or 'visitor'}{template.replace('/', '-')}-{width}"
                name = name.replace("{slug}", "t").replace("?", "-").replace("=", "-")
                page.screenshot(path=str(Path(shots) / f"{name}.png"), full_page=width < 1900)
    assert not failures, "\n" + "\n".join(failures)


# --- the table page (issue 37 point 1) ---------------------------------------------------------
# The longest names the desk allows (people.models.Named.name: 200 characters; a first or last
# name NAME_PART = 99): a 99-letter word with no break in it, then given names to 200.


def longest(word: str, given: str) -> str:
    """A name of 200 characters: `word` repeated to one unbroken 99-letter surname, then
    `given` repeated (with its spaces) to the rest."""
    from people.models import NAME_PART

    surname = (word * NAME_PART)[:NAME_PART]
    rest = (given * 200)[: 200 - NAME_PART - 2].rstrip()
    rest += "x" * (200 - NAME_PART - 1 - len(rest))
    name = f"{surname} {rest}"
    assert len(name) == 200
    return name


LONGEST = [
    longest("Wolfeschlegelsteinhausenbergerdorff", "Hubert Blaine "),
    longest("Костянтинівська", "Анастасія Олександрівна "),
    longest("Brzęczyszczykiewicz", "Małgorzata Świątek "),
    longest("Shevchenko-Kovalenko", "Oleksandra Khrystyna "),
]


def table_tournament(staff, ruleset: str, slug: str, seats: int):
    """A tournament of the longest names and the longest name, winds drawn at the table, one
    table of `seats` players; its session's clock running."""
    from seating.models import Table
    from tournament.sessions import start_clock

    t = Tournament.objects.create(
        name=longest("Międzynarodowy", "Turniej Mahjong o Puchar "),
        slug=slug,
        ruleset=ruleset,
        winds=Tournament.Winds.TABLE,
    )
    players = [
        Player.objects.create(tournament=t, key=f"p{n:02d}", name=name, club=CLUBS[n])
        for n, name in enumerate(LONGEST[:seats])
    ]
    session = Session.objects.create(tournament=t, number=1)
    table = add_table(session, players)
    start_clock(session, staff["desk1"])
    return session, Table.objects.get(pk=table.pk)


class Steps:
    """One phone on the table page: each step measured (problems()), and screenshotted into
    PHONE_SHOTS when it is set."""

    def __init__(self, page, game, width):
        self.page, self.game, self.width = page, game, width
        self.failures = []
        self.shots = os.environ.get("PHONE_SHOTS")

    def check(self, step):
        page = self.page
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        where = f"table page {self.game} @{self.width}: {step}"
        self.failures += problems(page, where, None, self.width)
        if self.shots:
            name = f"table-{self.game}-{self.width}-{step.replace(' ', '-')}.png"
            page.screenshot(path=str(Path(self.shots) / name), full_page=True)

    def synced(self):
        expect(self.page.locator("#status")).to_contain_text("Everything is at the desk")

    def kind(self, label):
        self.page.locator("#entry .kinds button", has_text=label).first.click()

    def chip(self, legend, index):
        fieldset = self.page.locator(
            "#entry fieldset", has=self.page.locator("legend", has_text=legend)
        )
        fieldset.first.locator("button.chip").nth(index).click()

    def draw(self, seats):
        """The winds' draw: the last player drew East, and so on."""
        page = self.page
        expect(page.locator("#entry")).to_contain_text("Who drew which wind")
        self.check("winds draw")
        selects = page.locator("#entry select")
        for n in range(seats):
            selects.nth(n).select_option(index=seats - n)
        self.check("winds chosen")
        page.get_by_role("button", name="Record the winds").click()
        self.synced()
        self.check("winds recorded")
        page.locator("#device select").select_option(index=seats)
        self.check("device chosen")

    def queue_and_refusals(self, describe):
        """A hand waiting offline, a conflict over it, a refused change set aside."""
        page = self.page
        page.context.set_offline(True)
        page.evaluate("window.dispatchEvent(new Event('offline'))")
        page.get_by_role("button", name="Save the hand").click()
        expect(page.locator("#status")).to_contain_text("No network")
        self.check("offline queue")
        # what the page draws for a conflict and a refusal, drawn from the page's own state
        page.evaluate(
            """(text) => {
              const S = window.sheetDebug, q = S.queue[S.queue.length - 1];
              q.conflict = {data: q.data};
              S.parked.push({kind: "record", number: 9, data: q.data, refused: text});
              window.Sheet.view.render();
            }""",
            "Hand 2: " + LONGEST[0] + " — " + describe,
        )
        expect(page.locator("#decide .conflict").first).to_be_visible()
        self.check("conflict and refusal")
        page.evaluate(
            """() => { const S = window.sheetDebug;
              S.queue.forEach(q => delete q.conflict); S.parked = [];
              window.Sheet.view.render(); }"""
        )
        page.context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        self.synced()

    def correction(self):
        page = self.page
        page.get_by_role("button", name="Correct").first.click()
        page.locator("#reason").fill("the winner was South")
        self.check("correcting")
        page.get_by_role("button", name="Save the correction").click()
        self.synced()
        self.check("corrected")


def riichi_steps(s: Steps):
    page = s.page
    s.draw(4)
    s.kind("Ron")
    s.chip("From", 3)
    s.chip("Winner", 0)
    s.check("ron")
    s.chip("Riichi", 3)
    expect(page.locator("#riichi-dealt")).to_be_visible()
    s.check("riichi dealt in asked")
    page.locator("#riichi-dealt button").nth(1).click()
    expect(page.locator("#preview table")).to_be_visible()
    s.check("ron preview")
    page.locator("#entry .value select").nth(1).select_option("3")
    s.check("ron han")
    page.get_by_role("button", name="Save the hand").click()
    s.synced()
    s.check("hand saved")
    for label, legend in (("Tsumo", "Winner"), ("Draw", "Tenpai"), ("Chombo", "Chombo")):
        s.kind(label)
        s.chip(legend, 1)
        s.check(label.lower())
    s.kind("Abortive")
    s.check("abortive")
    if page.locator("#entry .kinds button", has_text="Nagashi").count():
        s.kind("Nagashi")
        s.chip("Nagashi", 2)
        s.check("nagashi")
    s.kind("Tsumo")
    s.chip("Winner", 2)
    for wind in (0, 1, 2, 3):
        s.chip("Riichi", wind)
    page.locator("#entry .limits button").first.click()
    expect(page.locator("#preview table")).to_be_visible()
    s.check("tsumo with riichi")
    s.queue_and_refusals("Tsumo W mangan · Riichi: E S W N")
    s.correction()


def sichuan_steps(s: Steps):
    page = s.page
    s.draw(3)
    s.kind("Kong")
    page.locator("#entry label.pick select").select_option("open")
    s.chip("By", 0)
    s.chip("From", 2)
    s.check("kong")
    page.locator("#entry button.add").click()
    s.kind("False hu")
    s.chip("By", 1)
    s.chip("discard", 0)
    s.check("false hu")
    s.kind("Dead")
    s.chip("By", 1)
    s.check("dead hand")
    page.locator("#entry button.add").click()
    s.kind("Hu")
    s.chip("Winners", 0)
    s.chip("From", 2)
    page.locator("#entry details.fans summary").first.click()
    page.locator("#entry .fan input").first.fill("1")
    s.check("hu with checklist")
    page.locator("#entry button.add").click()
    page.locator("#entry .wall input").check()
    # S is dead (not waiting, 002 §2.8.3): W waits
    page.locator("#entry .value select").last.select_option("waiting")
    s.check("wall ran out with checklist")
    expect(page.locator("#preview table")).to_be_visible()
    page.get_by_role("button", name="Save the hand").click()
    s.synced()
    s.check("hand saved")
    s.kind("Hu")
    s.chip("Winners", 1)
    page.locator("#entry .flag input").first.check()  # self-drawn
    page.locator("#entry .fansbox").first.fill("2")
    page.locator("#entry button.add").click()
    page.locator("#entry .wall input").check()
    expect(page.locator("#preview table")).to_be_visible()
    s.queue_and_refusals("Hu S (2 fans) (self-drawn)")
    s.correction()


@pytest.mark.long(60)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["riichi", "sichuan"])
def test_the_table_page_fits_a_phone_in_every_step(new_context, game):
    """Issue 37 point 1: the table page at 360 and 390 px with the longest names the desk
    allows (200 characters, a 99-letter word among them): riichi at four seats, Sichuan at a
    three-player table (002 §3.1), each through the winds' draw, the device's seat, each kind of
    hand in the form, the preview, the hands, a change waiting offline, a conflict and a refused
    change, a correction, and the session's time up. Nothing sideways (the page no wider than
    the window, no element's right edge past it) and no name cut."""
    from seating.keys import table_path
    from tournament import timekeeping as tk

    staff = f.staff()
    ruleset, seats = ("ema-2012", 4) if game == "riichi" else ("sbr-2025", 3)
    failures = []
    for width in PHONES:
        session, table = table_tournament(staff, ruleset, f"fit-{game}-{width}", seats)
        page = new_context(viewport={"width": width, "height": HEIGHT[width]}).new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(table_path(table))
        steps = Steps(page, game, width)
        (riichi_steps if game == "riichi" else sichuan_steps)(steps)
        # the clock: the session's time is up, the table on its last hand or past it
        tk.adjust_clock(session, staff["desk1"], -tk.MAX_ADJUST_MINUTES)
        page.reload()
        expect(page.locator("#info")).to_contain_text(re.compile("Last hand|time is over"))
        steps.check("time up")
        failures += steps.failures
        page.context.close()
    assert not failures, "\n" + "\n".join(failures)
