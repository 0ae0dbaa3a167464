"""Issue 8: every string meant for people is marked, every catalogue is complete and compiled,
the switcher and the browser's language choose the page's language, printouts follow the
tournament's language, dates and numbers follow the active language."""

import io
import re
import shutil

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext
from openpyxl import load_workbook
from pypdf import PdfReader

from archive.tournament_file import export_tournament
from printing.pdf.protocols import protocols_pdf
from printing.pdf.standings import standings_pdf
from printing.xlsx.tournament import workbook_bytes
from tests.integration.config.test_permissions import RULES, kwargs_for
from tests.support import factories as f
from tests.support import i18n_scan, tournaments
from tournament.models import Player

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sdf]|%[sd]|\{\w*(?:![rs])?\}")


def catalogue(code):
    path = settings.LOCALE_PATHS[0] / code / "LC_MESSAGES" / "django.po"
    with path.open("rb") as source:
        return read_po(source)


# --- marking --------------------------------------------------------------------------------


def test_the_scanner_finds_unmarked_text():
    """The checks below can fail: text, attributes and sinks outside gettext are found."""
    found = i18n_scan.template_strings(
        '{% load i18n %}<p>Hello there</p><input placeholder="Your name">'
        "{% translate 'Marked' %}{% blocktranslate %}Also {{ x }} marked{% endblocktranslate %}"
        "<script>var notText = 1;</script>{# a comment #}<b>{{ value }}</b> · 12"
    )
    assert found == ["Hello there", 'placeholder="Your name"']
    visitor = i18n_scan._Python()
    visitor.visit(
        i18n_scan.ast.parse(
            "raise ActionRefused('Not allowed.', 'field')\n"
            "ActionRefused(_('Fine.'), 'field')\n"
            "messages.success(request, 'Saved.')\n"
            "x = forms.CharField(label='Name', help_text=_('ok'))\n"
            "class Kind(models.TextChoices):\n    LATE = 'late', 'Late arrival'\n"
            "raise RuleError('minutes', 'Must be a number.')\n"
        )
    )
    assert [text for _line, text in visitor.found] == [
        "Not allowed.",
        "Saved.",
        "Name",
        "Late arrival",
        "Must be a number.",
    ]


def test_every_template_string_is_marked():
    assert i18n_scan.templates() == {}


def test_every_python_string_shown_to_people_is_marked():
    assert i18n_scan.python() == {}


# --- catalogues -----------------------------------------------------------------------------


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalogue_is_complete(code):
    """No entry untranslated or fuzzy; every plural form filled; placeholders kept."""
    cat = catalogue(code)
    assert cat.locale is not None and str(cat.locale) == code
    problems = []
    for message in cat:
        if not message.id:
            continue  # the header
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            problems.append(("fuzzy", ids[0]))
        if len(strings) != (cat.num_plurals if len(ids) > 1 else 1):
            problems.append(("plural forms", ids[0]))
        expected = set().union(*(PLACEHOLDER.findall(i) for i in ids))
        for string in strings:
            if not string.strip():
                problems.append(("untranslated", ids[0]))
            elif len(ids) == 1 and set(PLACEHOLDER.findall(string)) != expected:
                problems.append(("placeholders", ids[0], string))
            elif not set(PLACEHOLDER.findall(string)) <= expected:
                problems.append(("placeholders", ids[0], string))
    assert problems == []
    assert len([m for m in cat if m.id]) > 800


def test_catalogues_hold_every_marked_string(tmp_path, monkeypatch):
    """makemessages on the sources today gives exactly the catalogues' msgids: a new or changed
    string fails here until `scripts/messages` has run and the new entries are translated.

    It runs on a copy of the sources, so the real catalogues are never touched.
    """
    source = tmp_path / "src"
    for folder in ("config", settings.GROUND, *settings.ROOMS, "templates"):
        shutil.copytree(
            settings.BASE_DIR / folder, source / folder, ignore=shutil.ignore_patterns("*.pyc")
        )
    (source / "locale").mkdir()
    monkeypatch.chdir(source)
    with override_settings(LOCALE_PATHS=[source / "locale"]):
        call_command("makemessages", locale=["ru"], add_location="file", verbosity=0)
    with (source / "locale" / "ru" / "LC_MESSAGES" / "django.po").open("rb") as po:
        fresh = {m.id for m in read_po(po) if m.id}
    for code in TRANSLATED:
        assert {m.id for m in catalogue(code) if m.id} == fresh, code


@pytest.mark.parametrize("code", TRANSLATED)
def test_compiled_catalogue_matches_the_po(code):
    """The set-up compiles the .po files (scripts/setup): what Django says is what they say."""
    cat = catalogue(code)
    with translation.override(code):
        for message in cat:
            if message.id and isinstance(message.id, str) and not message.context:
                assert gettext(message.id) == message.string, message.id


def test_compile_catalogues_writes_mo_from_po(tmp_path):
    """The set-up's command builds a working .mo without GNU gettext (Babel)."""
    folder = tmp_path / "pl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = settings.LOCALE_PATHS[0] / "pl" / "LC_MESSAGES" / "django.po"
    (folder / "django.po").write_bytes(po.read_bytes())
    with override_settings(LOCALE_PATHS=[tmp_path]):
        call_command("compile_catalogues")
    import gettext as gnu

    with (folder / "django.mo").open("rb") as mo:
        compiled = gnu.GNUTranslations(mo)
    assert compiled.gettext("Standings") == "Klasyfikacja"
    # Polish plurals: 1 / 2-4 / 5+ / 22
    forms = [compiled.plural(n) for n in (1, 3, 5, 22)]
    assert forms == [0, 1, 2, 1]


# --- every page in every language -----------------------------------------------------------

ALLOWED_LATIN = {
    # codes and names that stay as they are in every language
    "EMA",
    "SBR",
    "PDF",
    "XLSX",
    "CSV",
    "JSON",
    "UTF",
    "ID",
    "English",
    "Polski",
    "uma",
    "oka",
    "chombo",
    "riichi",
    "honba",
    "hanchan",
}


VISIBLE_ATTRS = ("title", "placeholder", "aria-label")
WORDS = re.compile(r"[^\W\d_][^\W\d_']+")


def vocabulary(code) -> tuple[set, set]:
    """(words of the English msgids, words of the language's translations)."""
    english, local = set(), set()
    for message in catalogue(code):
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            english.update(w for i in ids for w in WORDS.findall(i))
            local.update(w for t in strings for w in WORDS.findall(t))
    return english, local


def english_words(html: str, english: set, local: set, data_words: set) -> list:
    """The page's texts holding words of the English source that the translation lacks."""
    page = i18n_scan.ShownText(skip=("script", "style", "code", "option"), attrs=VISIBLE_ATTRS)
    page.feed(html)
    return [
        text.strip()
        for _attribute, text in page.text
        if any(
            w in english and w not in local and w not in ALLOWED_LATIN and w not in data_words
            for w in WORDS.findall(text)
        )
    ]


def _data_words(t) -> set:
    text = [t.name, t.slug, t.venue, t.get_ruleset_display()]
    for p in Player.objects.filter(tournament=t):
        text += [p.name, p.key, p.club, p.country, p.team]
    text += ["dir", "desk1", "desk2", "ref", "visitor"]
    # the club rating of the permission rules (test_permissions.rules_club): its names
    text += ["Rules Club", "rules-club", "Member", "Spring"]
    return set(re.findall(r"[A-Za-z']+", " ".join(text)))


@pytest.mark.parametrize(
    "ruleset,scores", [("ema-2012", [40000, 35000, 25000, 20000]), ("sbr-2025", [30, 10, -10, -30])]
)
@pytest.mark.parametrize("code", TRANSLATED)
def test_every_page_is_in_the_language(code, ruleset, scores):
    """Every desk and public page as the director, in ru / uk / pl, for a riichi and a Sichuan
    tournament: no English word left but names and codes (catches text built in Python that
    the scanner cannot see)."""
    staff = f.staff()
    # the seating print page is in the tournament's language
    t = tournaments.played(staff, scores, confirmed=True, ruleset=ruleset, language=code)
    player = t.players.first()
    c = Client(HTTP_ACCEPT_LANGUAGE=code)
    c.force_login(staff["director"])
    pages = {name: reverse(name, kwargs=kwargs_for(name, t, player)) for name in sorted(RULES)}
    pages |= {
        "public:standings": reverse("public:standings", kwargs={"slug": t.slug}),
        "public:player": reverse("public:player", kwargs={"slug": t.slug, "key": "p01"}),
        "public:find": reverse("public:find", kwargs={"slug": t.slug}) + "?q=Pla",
        "public:clock": reverse("public:clock", kwargs={"slug": t.slug}),
        "public:home": reverse("public:home"),
    }
    data_words = _data_words(t)
    english, local = vocabulary(code)
    found = {}
    for name, path in pages.items():
        response = c.get(path)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        assert f'<html lang="{code}">' in html, name
        left = english_words(html, english, local, data_words)
        if left:
            found[name] = left
    assert found == {}


# --- switcher and browser language -----------------------------------------------------------


def test_switcher_remembers_the_language_per_browser():
    t = f.tournament()
    standings = reverse("public:standings", kwargs={"slug": t.slug})
    browser = Client()
    assert '<html lang="en">' in browser.get(standings).content.decode()
    r = browser.get(reverse("language"), {"language": "uk", "next": standings})
    assert r.status_code == 302 and r["Location"] == standings
    cookie = r.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "uk" and cookie["max-age"] == 365 * 24 * 3600
    page = browser.get(standings).content.decode()
    assert '<html lang="uk">' in page and "Турнірна таблиця" in page
    # the cookie wins over the browser's own language; another browser is not affected
    page = browser.get(standings, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert '<html lang="uk">' in page
    assert '<html lang="en">' in Client().get(standings).content.decode()


def test_switcher_refuses_unknown_languages_and_foreign_addresses():
    browser = Client()
    r = browser.get(reverse("language"), {"language": "de", "next": "/"})
    assert r.status_code == 302 and settings.LANGUAGE_COOKIE_NAME not in r.cookies
    r = browser.get(reverse("language"), {"language": "pl", "next": "https://evil.example/"})
    assert r["Location"] == "/"
    assert r.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pl"


def test_every_page_has_the_switcher():
    staff = f.staff()
    t = f.tournament()
    director = f.login(staff["director"])
    for path in ("/", reverse("public:standings", kwargs={"slug": t.slug}), "/desk/", "/login/"):
        page = (director if path == "/desk/" else Client()).get(path).content.decode()
        assert 'action="/language/"' in page, path
        for code, name in settings.LANGUAGES:
            assert f'<option value="{code}" lang="{code}"' in page and name in page


@pytest.mark.parametrize("code,heading", [("ru", "Турнирная таблица"), ("pl", "Klasyfikacja")])
def test_public_pages_follow_the_browser_language(code, heading):
    """Accept-Language chooses the language of a visitor with no cookie; the visitors' cache
    keeps one page per language."""
    t = f.tournament()
    standings = reverse("public:standings", kwargs={"slug": t.slug})
    for _round in range(2):  # the second answer comes from the visitors' cache
        page = Client(HTTP_ACCEPT_LANGUAGE=f"{code},en;q=0.5").get(standings).content.decode()
        assert f'<html lang="{code}">' in page and heading in page
        english = Client(HTTP_ACCEPT_LANGUAGE="en").get(standings).content.decode()
        assert '<html lang="en">' in english and heading not in english


# --- printouts ------------------------------------------------------------------------------


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.parametrize(
    "code,protocols,standings",
    [
        ("en", "Table protocols, session 1", "Standings after 1 of 4 sessions"),
        ("ru", "Протоколы столов, сессия 1", "Турнирная таблица"),
        ("uk", "Протоколи столів, сесія 1", "Турнірна таблиця"),
        ("pl", "Protokoły stołów, rozgrywka 1", "Klasyfikacja po 1 z 4 rozgrywek"),
    ],
)
def test_printouts_follow_the_tournament_language(code, protocols, standings):
    """Tournament.language chooses the printouts' language, whatever the director's page is in."""
    staff = f.staff()
    t = tournaments.played(staff, confirmed=True, tables=(1, 2), language=code)
    with translation.override("en" if code != "en" else "ru"):
        protocol = PdfReader(io.BytesIO(protocols_pdf(t.sessions.get())))
        table = PdfReader(io.BytesIO(standings_pdf(t)))
        book = load_workbook(io.BytesIO(workbook_bytes(t)))
    assert protocol.metadata.title == protocols
    assert standings in pdf_text(standings_pdf(t))
    assert table.metadata.title.startswith(standings.split(" po ")[0])
    with translation.override(code):
        assert book.sheetnames[0] == gettext("Standings")
        wind = gettext("East")
    assert wind in pdf_text(protocols_pdf(t.sessions.get()))


def test_printout_language_is_kept_in_the_tournament_file():
    t = f.tournament(language="uk")
    assert export_tournament(t)["tournament"]["language"] == "uk"


# --- dates and numbers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "code,number,date",
    [
        ("en", "12,345.5", "21/11/2026 14:05"),
        ("ru", "12\xa0345,5", "21.11.2026 14:05"),
        ("uk", "12\xa0345,5", "21.11.2026 14:05"),
        ("pl", "12\xa0345,5", "21-11-2026  14:05"),
    ],
)
def test_dates_and_numbers_follow_the_language(code, number, date):
    import datetime

    moment = datetime.datetime(2026, 11, 21, 14, 5)
    with translation.override(code):
        assert formats.number_format(12345.5, 1, force_grouping=True) == number
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == date
        assert formats.time_format(moment, "TIME_FORMAT") == "14:05"
