"""The choice of time zones (core.zones.ZoneSelect) is written in Python for speed: it must be
the HTML Django's own forms.Select writes from its templates, to the character."""

import pytest
from django import forms
from django.utils.safestring import mark_safe

from core.zones import ZoneSelect, zone_names

# No database: the PostgreSQL run of scripts/test leaves it out (tests/conftest.py).
pytestmark = pytest.mark.once


@pytest.mark.parametrize(
    "value, attrs",
    [
        ("Europe/Warsaw", {"id": "id_time_zone", "maxlength": 64, "aria-describedby": "help"}),
        ("Europe/Kyiv", {"required": True, "disabled": False}),
        (None, None),
        ("", {}),
        ("Not/A_Zone", {"title": 'a"<&>', "data-safe": mark_safe("<b>")}),
        (["America/New_York", "UTC"], {"id": "x"}),
        (5, {"data-n": 5}),
    ],
)
def test_the_zone_choice_is_djangos_select_to_the_character(value, attrs):
    django_select = forms.Select(choices=[(name, name) for name in zone_names()])
    expected = django_select.render("time_zone", value, attrs=attrs)
    assert ZoneSelect().render("time_zone", value, attrs=attrs) == expected
    assert expected.count("<option") == len(zone_names()) > 400


def test_the_tournament_and_club_forms_render_as_with_djangos_select():
    """The forms that show it, rendered whole, are the same with either widget."""
    from desk.club.forms import ClubForm
    from desk.forms import TournamentForm

    for make in (TournamentForm, ClubForm):
        form = make()
        fast = form.as_p()
        fast_widget = form.fields["time_zone"].widget
        plain = forms.Select(attrs=dict(fast_widget.attrs), choices=fast_widget.choices)
        plain.is_required = fast_widget.is_required
        form.fields["time_zone"].widget = plain
        assert form.as_p() == fast
