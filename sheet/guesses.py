"""Wrong short codes typed at /h/, counted per client (its address: each phone in the hall has
its own) in the desk's cache: past `WRONG_MAX` in `WINDOW_SECONDS`, the client's codes are not
looked at until the window is over, the right one neither. A code has 31**8 values (about
8.5 × 10**11), so ten guesses a minute would find one of a thousand tables' codes once in
160 years."""

from django.core.cache import cache

WRONG_MAX = 10
WINDOW_SECONDS = 60


def _key(request) -> str:
    return "sheet-code-wrong:" + request.META.get("REMOTE_ADDR", "")


def throttled(request) -> bool:
    """Whether the client has typed WRONG_MAX wrong codes in its current window."""
    return cache.get(_key(request), 0) >= WRONG_MAX


def count_wrong(request) -> None:
    """One more wrong code; the window starts at the client's first one and is not lengthened."""
    key = _key(request)
    if cache.add(key, 1, WINDOW_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:  # the window ended between the two
        cache.add(key, 1, WINDOW_SECONDS)
