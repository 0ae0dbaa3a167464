"""Names in the order their readers expect (issue 23): by the Unicode Collation Algorithm,
tailored to the tournament's language, never by character code (where Ł came after Z, and
every Latin name before every Cyrillic one). Plain Python, no Django.

pyuca gives the Unicode Collation Algorithm with its default table (DUCET): letters by their
base letter first, accents and case deciding only between otherwise equal names, numbers
before letters. On top of it, what the languages of the desk change, as CLDR tailors them:

- pl: ą ć ę ł ń ó ś ź ż are letters of their own, each right after its base letter (Łukasz
  after every L, before M);
- ru, uk: Cyrillic before Latin;
- uk: ґ after г and ї after і, letters of their own.

English is the default table as it is. A name's key is cached.
"""

import functools
import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

from pyuca import Collator

T = TypeVar("T")

# Per language: the letters that sort as letters of their own, after the first of each group.
AFTER = {
    "pl": ("aą", "cć", "eę", "lł", "nń", "oó", "sś", "zźż"),
    "uk": ("гґ", "\u0456\u0457"),  # і ї
}
CYRILLIC_FIRST = {"ru", "uk"}
CYRILLIC_BLOCKS = ((0x0400, 0x052F), (0x1C80, 0x1C8F), (0x2DE0, 0x2DFF), (0xA640, 0xA69F))
UPPER = 0x08  # the default table's tertiary weight of a capital letter
STEP = 4  # room after each primary weight for the letters tailored after it


@functools.cache
def _collator() -> Collator:
    return Collator()  # reads the default table once (about 0.1 s)


def _primary(ch: str) -> int:
    return _collator().collation_elements(ch)[0][0]


class _Collation:
    """One language's tailoring: primary weights remapped, its own letters put in between."""

    def __init__(self, language: str):
        self.shift = None
        if language in CYRILLIC_FIRST:
            weights = [
                element[0]
                for start, end in CYRILLIC_BLOCKS
                for code in range(start, end + 1)
                if unicodedata.category(chr(code)).startswith("L")
                for element in _collator().collation_elements(
                    unicodedata.normalize("NFD", chr(code))
                )
                if element[0]
            ]
            # Latin (and the scripts between it and Cyrillic in the table) moves up past
            # Cyrillic, which takes Latin's place.
            self.shift = (_primary("a"), min(weights), max(weights))
        self.letters = {}
        for group in AFTER.get(language, ()):
            base = self.primary(_primary(group[0]))
            for n, letter in enumerate(group[1:], start=1):
                self.letters[letter] = (base + n, 0x20, 0x02)
                self.letters[letter.upper()] = (base + n, 0x20, UPPER)

    def primary(self, weight: int) -> int:
        if weight and self.shift:
            latin, first, last = self.shift
            if first <= weight <= last:
                weight = latin + weight - first
            elif latin <= weight < first:
                weight += last - first + 1
        return weight * STEP

    def elements(self, text: str) -> list:
        out, run = [], []

        def flush():
            if run:
                nfd = unicodedata.normalize("NFD", "".join(run))
                for element in _collator().collation_elements(nfd):
                    out.append((self.primary(element[0]), element[1], element[2]))
                run.clear()

        for ch in unicodedata.normalize("NFC", text):
            tailored = self.letters.get(ch)
            if tailored is None:
                run.append(ch)
            else:
                flush()
                out.append(tailored)
        flush()
        return out


@functools.cache
def _collation(language: str) -> _Collation:
    return _Collation(language)


def language_of(code: str | None) -> str:
    """ "pl", "pl-PL" and "pl_pl" are Polish; anything else without a tailoring is the default."""
    return (code or "").replace("_", "-").split("-")[0].lower()


@functools.lru_cache(maxsize=65536)
def sort_key(text: str, language: str = "") -> tuple:
    """The key that puts `text` in its place among others in `language` (a language code).
    Primary weights first (letters), then secondary (accents), then tertiary (case); the text
    itself last, so that no two different names tie."""
    elements = _collation(language_of(language)).elements(text)
    levels = []
    for level in range(3):
        if level:
            levels.append(0)
        levels += [element[level] for element in elements if element[level]]
    return (tuple(levels), text)


def collated(items: Iterable[T], language: str, name: Callable[[T], str] = str) -> list[T]:
    """`items` sorted by `name(item)` in `language`'s order."""
    return sorted(items, key=lambda item: sort_key(name(item), language))
