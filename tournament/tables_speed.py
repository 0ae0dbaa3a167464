"""django-tables2 reads each render_* method's signature with `inspect.signature` for every
cell it draws: 28 µs a cell, 40 % of a public player page and a quarter of the 200-row
standings. A method's signature never changes, so it is read once per function.

Installed by TournamentConfig.ready(); `django_tables2.utils.call_with_appropriate` looks the
module's `signature` up at each call, so replacing it there is enough.
"""

import functools

from django_tables2 import utils

_uncached = utils.signature


@functools.lru_cache(maxsize=4096)
def _signature_of(function, bound: bool):
    return _uncached(function.__get__(object()) if bound else function)


def signature(fn):
    function = getattr(fn, "__func__", None)
    if function is None or not callable(function):
        return _uncached(fn)
    return _signature_of(function, True)


def install() -> None:
    if utils.signature is not signature:
        utils.signature = signature
