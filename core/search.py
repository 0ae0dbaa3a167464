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

Names are folded in Python, not in the database: a tournament has at most a few thousand
players, the folding is cached per name, and it works alike on SQLite and PostgreSQL (whose
case and accent handling differ, and neither folds Ł or ß).
"""

import functools
import unicodedata

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
    folded = fold(text).replace(" ", "")
    composed = unicodedata.normalize("NFC", text.casefold())
    if any(ch in composed for ch in "äöü"):
        spelled = fold(composed.translate(_UMLAUTS)).replace(" ", "")
        if spelled != folded:
            return (folded, spelled)
    return (folded,)


class Needle:
    """A typed query, folded once, matched against any number of names.

    False when the query has nothing to look for (empty, or only spaces and punctuation):
    it then matches every name."""

    def __init__(self, query: str | None):
        query = unicodedata.normalize("NFC", (query or "").casefold())
        self.alternatives = tuple(
            {tuple(fold(form).split()) for form in (query, query.translate(_UMLAUTS))}
        )

    def __bool__(self) -> bool:
        return any(self.alternatives)

    def matches(self, name: str) -> bool:
        return any(
            all(word in form for word in words)
            for words in self.alternatives
            for form in forms(name)
        )
