"""Forms of the users page (issue 34): a new user, a role on a tournament, a club, and the
buttons that take a role back or switch an account. Every label and message is translated."""

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import Club, OfficerGrant
from tournament.models import StaffGrant, Tournament


class UserAddForm(forms.Form):
    username = forms.CharField(label=_("user name"), max_length=150)
    password = forms.CharField(
        label=_("password"),
        required=False,
        strip=False,
        max_length=128,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("Empty: the desk makes one and shows it once, on the next page."),
    )


class GiveRoleForm(forms.Form):
    tournament = forms.ModelChoiceField(
        queryset=Tournament.objects.order_by("-start_date", "name"), label=_("tournament")
    )
    role = forms.ChoiceField(choices=StaffGrant.ROLES, label=_("role"))


class GiveClubForm(forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.order_by("name"), label=_("club rating"))


class TakeRoleForm(forms.Form):
    grant = forms.ModelChoiceField(queryset=StaffGrant.objects.all(), widget=forms.HiddenInput)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["grant"].queryset = StaffGrant.objects.filter(user=user)


class TakeClubForm(forms.Form):
    grant = forms.ModelChoiceField(queryset=OfficerGrant.objects.all(), widget=forms.HiddenInput)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["grant"].queryset = OfficerGrant.objects.filter(user=user)


class SwitchForm(forms.Form):
    """Activate/deactivate, make/unmake director: the button's value."""

    on = forms.BooleanField(required=False)
