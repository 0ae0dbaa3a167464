"""A person's name: its first and last parts, and its Latin spelling (issue 23).

The EMA ranks players by a Latin name in two parts, last and first. The desk keeps the name
as it is shown (often Cyrillic) and, when known, its first and last name apart; what is not
typed is worked out here:

- `first_and_last(name, order)`: a name given only whole is split before its last word (or,
  in the family-name-first order a list may say it uses, after the first word), but the
  particles of a surname ("van den Berg", "de la Cruz", "von Trier") stay with the surname.
- `latin(text, scheme)`: a Cyrillic name spelled in Latin letters by a national standard —
  Ukrainian: the national system of 2010 (Cabinet of Ministers of Ukraine, resolution no. 55,
  the one Ukrainian passports use; translitua's `UkrainianKMU`); Russian: ICAO Doc 9303, which
  Russian passports use since 2014 (iuliia's `ICAO_DOC_9303`). Text already in Latin script
  is returned as it is.
- `scheme_for(...)`: which of the two a name takes: the player's own language where the
  letters or the country tell it (issue 37), the tournament's otherwise.

Plain Python: no Django; the packages are the standards' tables, not a table of our own.
"""

import re

import iuliia
import translitua

UKRAINIAN = "uk"
RUSSIAN = "ru"

CYRILLIC = re.compile(r"[\u0400-\u04ff]")
# Letters one alphabet has and the other has not: a name spelled with them says which it is.
ONLY_UKRAINIAN = re.compile(r"[ІіЇїЄєҐґ]")
ONLY_RUSSIAN = re.compile(r"[ЫыЭэЪъЁё]")
# How a player's country may be written for Ukraine (compared case-folded).
UKRAINE = frozenset({"ua", "ukr", "ukraine", "україна", "украина", "ukraina", "ukrajina"})
# And for Russia: a Russian player is spelled by the Russian passports' table wherever they play.
RUSSIA = frozenset(
    {
        "ru",
        "rus",
        "russia",
        "russian federation",
        "россия",
        "российская федерация",
        "росія",
        "rosja",
        "rusko",
        "russland",
    }
)

# The order of the words of a name given whole (a list says which it uses): the first name
# first ("Anna Nowak", the desk's rule when nothing says otherwise), or the family name first
# ("Щербаков Алексей" in a Russian list, "Chen Wei").
GIVEN_FIRST = "given"
FAMILY_FIRST = "family"

# Words that belong to the surname that follows them (Dutch, German, French, Italian, Spanish,
# Portuguese, Scandinavian, Arabic), compared case-folded.
PARTICLES = frozenset(
    {
        "van",
        "von",
        "vom",
        "zu",
        "zum",
        "der",
        "den",
        "ter",
        "ten",
        "te",
        "de",
        "del",
        "della",
        "dei",
        "des",
        "du",
        "di",
        "da",
        "das",
        "dos",
        "do",
        "la",
        "le",
        "lo",
        "af",
        "av",
        "al",
        "el",
        "bin",
        "ibn",
        "'t",
    }
)


def first_and_last(name: str, order: str = GIVEN_FIRST) -> tuple[str, str]:
    """(first name, last name) of a name given whole: the last word is the surname, with the
    particles before it; one word is a surname alone. "Jan van den Berg" → ("Jan", "van den
    Berg"); a particle is never the whole first name ("Van Morrison" → ("Van", "Morrison")).
    FAMILY_FIRST: the first word is the surname, with the particles that lead it
    ("Щербаков Алексей" → ("Алексей", "Щербаков"), "van den Berg Jan" → ("Jan", "van den
    Berg"))."""
    words = name.split()
    if len(words) < 2:
        return "", " ".join(words)
    if order == FAMILY_FIRST:
        end = 1
        while end < len(words) - 1 and words[end - 1].casefold() in PARTICLES:
            end += 1
        return " ".join(words[end:]), " ".join(words[:end])
    start = len(words) - 1
    while start > 1 and words[start - 1].casefold() in PARTICLES:
        start -= 1
    return " ".join(words[:start]), " ".join(words[start:])


def joined(first: str, last: str, order: str = GIVEN_FIRST) -> str:
    """The name shown for a first and a last name: "first last", or "last first" in the
    FAMILY_FIRST order (either may be empty)."""
    parts = (last, first) if order == FAMILY_FIRST else (first, last)
    return " ".join(part.strip() for part in parts if part.strip())


def parts_of(name: str, first: str, last: str) -> tuple[str, str]:
    """(first name, last name) of a person: as typed when either is, else split from the
    name (first_and_last)."""
    if first or last:
        return first, last
    return first_and_last(name)


def scheme_for(text: str, *, country: str = "", language: str = "") -> str:
    """UKRAINIAN or RUSSIAN for a Cyrillic name, the player's own language where it is known:
    by the letters only one alphabet has when the name has them; else by the player's country
    (Ukraine: Ukrainian, Russia: Russian, whatever the tournament's language); else, for
    another or no country, Ukrainian for a tournament printed in Ukrainian, Russian otherwise.
    (Belarus has no table here: no installed package holds the Belarusian national system.)"""
    if ONLY_UKRAINIAN.search(text):
        return UKRAINIAN
    if ONLY_RUSSIAN.search(text):
        return RUSSIAN
    country = " ".join(country.split()).casefold()
    if country in UKRAINE:
        return UKRAINIAN
    if country in RUSSIA:
        return RUSSIAN
    return UKRAINIAN if language == UKRAINIAN else RUSSIAN


def latin(text: str, scheme: str) -> str:
    """`text` in Latin letters by the scheme's standard; without Cyrillic, `text` as it is."""
    if not CYRILLIC.search(text):
        return text
    if scheme == UKRAINIAN:
        return translitua.translit(text, translitua.UkrainianKMU)
    return iuliia.ICAO_DOC_9303.translate(text)
