"""Finding a name the way people type it (issue 23): without its accents, its case, its
apostrophes or its hyphens. Plain Python, no Django: the desk's check-in, the referee's search
and the visitors' "find my table" all match through `Needle`, so that they cannot disagree.

`fold` is the one folding of a text. Whatever a desk user can type for a letter folds to the
same as the letter: "Łukasz" and "lukasz", "O'Brien", "O’Brien" and "obrien", "Müller" and
"muller", "Straße" and "strasse", "Jean-Pierre" and "jean pierre". Cyrillic folds so that a name
typed on a Russian or a Ukrainian keyboard finds it: each lacks letters of the other (і ї є ґ
and the apostrophe; ё ы э ъ), so those fold to the nearest letter both have.

A query matches a name when each of its words occurs somewhere in the name with the spaces
taken out: "lukasz wojcik" finds "Wójcik Łukasz", "vandenberg" finds "van den Berg". German
names are also matched in their spelled-out form, so "mueller" finds "Müller" too.

A name typed in one script finds the name written in the other: a Cyrillic name is also found
by its Latin spelling ("shevchenko" finds "Шевченко", "gudz" finds "Ґудзь"), and a Cyrillic
query also looks for its Latin spelling ("Шевченко" finds "Shevchenko"), by the Ukrainian and
the Russian standards the Latin names use (core.names).

Names are folded in Python, not in the database: a tournament has at most a few thousand
players, the folding is cached per name, and it works alike on SQLite and PostgreSQL (whose
case and accent handling differ, and neither folds Ł or ß).
"""

import functools
import unicodedata

from core import names

# Apostrophes and quotation marks: part of no name's letters, typed differently by every
# keyboard (an iPhone turns ' into ’), so they are taken out.
QUOTES = (
    "'\u2019\u2018\u201b\u02bc\u02bb\u02bd`\u00b4\u2032\u2035\uff07"  # ' ’ ‘ ‛ ʼ ʻ ʽ ` ´ ′ ‵ ＇
    '"\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a'  # " “ ” „ ‟ « » ‹ ›
)

# Latin letters that no Unicode decomposition takes apart (casefold already gives ß -> ss).
LETTERS = {
    "ł": "l",
    "ø": "o",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "æ": "ae",
    "œ": "oe",
    "ı": "i",
    "ħ": "h",
    "ŧ": "t",
    "ŀ": "l",
    "ƚ": "l",
    "ŋ": "n",
}

# Cyrillic letters one of the Russian and Ukrainian keyboards lacks, after the accents are
# gone (ё -> е, ї -> і, й -> и): і and ы -> и, є and э -> е, ґ -> г; ъ, which Ukrainian spells
# with an apostrophe, is taken out like one.
CYRILLIC = {"і": "и", "ы": "и", "є": "е", "э": "е", "ґ": "г", "ъ": ""}

_TABLE = str.maketrans({**dict.fromkeys(QUOTES, ""), **LETTERS, **CYRILLIC})
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def fold(text: str) -> str:
    """`text` as search compares it: lower case, no accents, no apostrophes, Cyrillic letters
    folded as above, and every run of spaces, hyphens and other punctuation one space."""
    text = text.casefold().translate(_TABLE)
    text = unicodedata.normalize("NFKD", text)
    # Marks go before the Cyrillic table runs again: ї was і plus a diaeresis.
    text = "".join(ch for ch in text if not unicodedata.category(ch).startswith("M"))
    text = text.translate(_TABLE)
    words = "".join(ch if unicodedata.category(ch)[0] in "LN" else " " for ch in text)
    return " ".join(words.split())


@functools.lru_cache(maxsize=65536)
def forms(text: str) -> tuple[str, ...]:
    """The folded forms a name is found by, without spaces: one, or two for a name with
    ä, ö or ü ("Müller" is "muller" and "mueller")."""
    found = [fold(text).replace(" ", "")]
    composed = unicodedata.normalize("NFC", text.casefold())
    if any(ch in composed for ch in "äöü"):
        found.append(fold(composed.translate(_UMLAUTS)).replace(" ", ""))
    found += [spelled.replace(" ", "") for spelled in in_latin(text)]
    return tuple(dict.fromkeys(found))


def in_latin(text: str) -> list[str]:
    """A Cyrillic text folded as spelled in Latin letters by the Ukrainian and the Russian
    standards (core.names.latin: "Шевченко" → "shevchenko", "Ґудзь" → "gudz"), and as Polish
    writes it (`in_polish`: "Новак" → "nowak"), so that a name typed in one script finds the
    name written in the other (issue 37); none for a text without Cyrillic."""
    if not names.CYRILLIC.search(text):
        return []
    spelled = [names.latin(text, scheme) for scheme in (names.UKRAINIAN, names.RUSSIAN)]
    spelled.append(in_polish(text))
    # a letter one standard lacks (Ґ in the Russian one) leaves Cyrillic: not a spelling
    return list(dict.fromkeys(fold(s) for s in spelled if not names.CYRILLIC.search(s)))


# Cyrillic as Polish spells it, the way Polish names are written in Cyrillic and back
# ("Новак" is Nowak, "Ковальчик" Kowalczyk, "Бартош" Bartosz): Polish's own transcription of
# Russian and Ukrainian, letter by letter. Only for search: a Latin name is never made from it.
POLISH = {
    "а": "a", "б": "b", "в": "w", "г": "g", "ґ": "g", "д": "d", "ж": "ż", "з": "z", "и": "i",
    "і": "i", "й": "j", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
    "с": "s", "т": "t", "у": "u", "ф": "f", "х": "ch", "ц": "c", "ч": "cz", "ш": "sz",
    "щ": "szcz", "ъ": "", "ы": "y", "ь": "", "э": "e",
}  # fmt: skip
# е ё ю я є ї: "je" at a word's start and after a vowel or a sign, "ie" after a consonant
# (Белов is Bielow), a bare vowel after и (Мария is Maria), л and the hard ж ш ч щ ц
# (Шевченко is Szewczenko), but це is cie (Войцех is Wojciech).
IOTATED = {"е": "e", "ё": "o", "ю": "u", "я": "a", "є": "e", "ї": "i"}
HARD = set("жшчщц")
VOWELS = set("аеёиіоуыэюяєї")


def in_polish(text: str) -> str:
    """`text` with its Cyrillic letters as Polish writes them (POLISH, IOTATED): и after
    ж ш ч щ ц is y ("Ковальчик" → "kowalczyk"), and a word's closing -ий or -ый is i or y
    ("Ковальский" → "kowalski")."""
    out, before = [], ""
    text = unicodedata.normalize("NFC", text.casefold())
    for n, ch in enumerate(text):
        after = text[n + 1] if n + 1 < len(text) else ""
        if ch in IOTATED:
            if before in "иі" and before:
                out.append(IOTATED[ch])  # Мария: Maria
            elif not before.isalpha() or before in VOWELS or before in "ъь":
                out.append("j" + IOTATED[ch])
            elif before == "ц" and ch == "е":
                out.append("ie")  # Войцех: Wojciech
            elif before in HARD or before == "л":
                out.append(IOTATED[ch])
            else:
                out.append("i" + IOTATED[ch])
        elif ch == "и" and before in HARD:
            out.append("y")
        elif ch == "й" and before in "иы" and not after.isalpha():
            out.append("")  # -ский: -ski
        else:
            out.append(POLISH.get(ch, ch))
        before = ch
    return "".join(out)


class Needle:
    """A typed query, folded once, matched against any number of names.

    False when the query has nothing to look for (empty, or only spaces and punctuation):
    it then matches every name."""

    def __init__(self, query: str | None):
        query = unicodedata.normalize("NFC", (query or "").casefold())
        found = {tuple(fold(form).split()) for form in (query, query.translate(_UMLAUTS))}
        found |= {tuple(spelled.split()) for spelled in in_latin(query)}
        self.alternatives = tuple(found)

    def __bool__(self) -> bool:
        return any(self.alternatives)

    def matches(self, name: str) -> bool:
        return any(
            all(word in form for word in words)
            for words in self.alternatives
            for form in forms(name)
        )
