"""core.signed: the publishing key's parts and the signature a federation server checks."""

import pytest

from core import signed


def test_a_key_splits_at_its_first_dot_and_a_key_without_one_is_refused():
    assert signed.split_key(" 17.abc.def \n") == ("17", "abc.def")
    for bad in ("17", "17.", ".abc", ""):
        with pytest.raises(ValueError):
            signed.split_key(bad)


def test_the_signature_covers_the_kind_the_revision_and_the_body():
    good = signed.signature("s3cret", "tournament", 5, b"body")
    assert len(good) == 64
    assert signed.signed_by("s3cret", "tournament", 5, b"body", good)
    assert not signed.signed_by("s3cret", "tournament", 6, b"body", good)
    assert not signed.signed_by("s3cret", "club", 5, b"body", good)
    assert not signed.signed_by("s3cret", "tournament", 5, b"bodY", good)
    assert not signed.signed_by("other", "tournament", 5, b"body", good)
    assert not signed.signed_by("s3cret", "tournament", 5, b"body", "")
