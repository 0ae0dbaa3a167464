"""core.kept keeps at most REVISIONS_KEPT revisions of one kind of one owner (issue 39): at 2,000
players a revision's hall and standings are tens of megabytes, and a session of confirmations
must not hold a dozen of them."""

import pytest

from core import kept

pytestmark = pytest.mark.once


class Owner:
    def __init__(self, pk, revision):
        self.pk, self.revision = pk, revision


def test_only_the_newest_revisions_of_a_kind_and_owner_are_kept():
    for revision in range(1, 7):
        kept.per_revision("hall", Owner(1, revision), lambda revision=revision: [revision])
    other = kept.per_revision("hall", Owner(2, 1), lambda: ["other"])
    newest = range(7 - kept.REVISIONS_KEPT, 7)
    assert [kept.kept("hall", "Owner", 1, r) for r in newest] == [[r] for r in newest]
    assert all(kept.kept("hall", "Owner", 1, r) is None for r in range(1, 7 - kept.REVISIONS_KEPT))
    assert kept.kept("hall", "Owner", 2, 1) is other  # another owner's are its own
