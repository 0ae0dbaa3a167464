"""Every printout and workbook is made in its subject's language and time zone: a
tournament's (Tournament.printing()) or a club rating's (Club.printing())."""

import functools
from functools import cache


@cache
def in_print_language(build):
    """Build the printout in its tournament's language (Tournament.language): the subject's
    tournament (a session's), or the subject itself (a tournament, a club rating)."""

    @functools.wraps(build)
    def wrapper(subject, *args, **kwargs):
        with getattr(subject, "tournament", subject).printing():
            return build(subject, *args, **kwargs)

    return wrapper
