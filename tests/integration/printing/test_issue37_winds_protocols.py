"""Issue 37 point 2, on paper: with winds drawn at the table (002 §2.4.6: SBR seats the players
by wind cards drawn at the table; 000 §2.3), the printed protocols, blank and filled, give no
player a wind before the table has recorded its draw — the heading lists the table's players by
name and each wind's name is left to be written in — and give each player the drawn wind as soon
as the draw is recorded. (The riichi grid's "Dealer" column and the signature lines under each
wind are blanks the table fills in, no one's wind.) A three-player Sichuan table (002 §3.1)
and a riichi table, through the desk's real URLs; the PDFs read back with pypdf."""

import io

import pytest
from pypdf import PdfReader

from seating.services import add_table
from tests.support import factories as f
from tournament.models import Player, Session, Tournament

pytestmark = pytest.mark.django_db

WINDS = {"E": "East", "S": "South", "W": "West", "N": "North"}


def pdf_text(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF")
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)


def seated(ruleset: str, names: list[str], slug: str):
    t = Tournament.objects.create(
        name="Winds Cup", slug=slug, ruleset=ruleset, winds=Tournament.Winds.TABLE
    )
    players = [
        Player.objects.create(tournament=t, key=f"p{n:02d}", name=name)
        for n, name in enumerate(names, start=1)
    ]
    add_table(Session.objects.create(tournament=t, number=1), players)
    return t, {p.name: p.pk for p in players}


@pytest.mark.parametrize(
    ("ruleset", "names", "drawn"),
    [
        # the desk seats Anna East, Bartosz South, Dmytro West; the cards give Dmytro East
        (
            "sbr-2025",
            ["Anna Nowak", "Bartosz Żak", "Dmytro Koval"],
            ["Dmytro Koval", "Anna Nowak", "Bartosz Żak"],
        ),
        (
            "ema-2012",
            ["Anna Nowak", "Bartosz Żak", "Dmytro Koval", "Eva Novák"],
            ["Eva Novák", "Dmytro Koval", "Anna Nowak", "Bartosz Żak"],
        ),
    ],
)
def test_protocols_give_no_wind_before_the_draw_and_the_drawn_winds_after(ruleset, names, drawn):
    staff = f.staff()
    t, ids = seated(ruleset, names, f"winds-{ruleset}")
    f.grant(staff["desk1"], t)
    desk = f.login(staff["desk1"])
    winds = list(WINDS)[: len(names)]
    urls = [f"/desk/{t.slug}/s/1/protocols.pdf", f"/desk/{t.slug}/s/1/protocols.pdf?filled=1"]
    for url in urls:
        text = pdf_text(desk.get(url).content)
        assert f"Winds drawn at the table; players: {', '.join(names)}" in text, url
        for wind in winds:
            for name in names:  # nobody under a wind: each wind's name is to be written in
                assert f"{WINDS[wind]} {name}" not in text, (url, wind, name)

    # The table records its draw at the desk's result page.
    response = desk.post(
        f"/desk/{t.slug}/s/1/t/1/winds/", {w: ids[n] for w, n in zip(winds, drawn, strict=True)}
    )
    assert response.status_code == 302
    for url in urls:
        text = pdf_text(desk.get(url).content)
        assert "Winds drawn at the table" not in text, url
        for wind, name in zip(winds, drawn, strict=True):
            assert f"{WINDS[wind]} {name}" in text, (url, wind, name)
