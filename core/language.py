"""The language switcher: a browser's choice, kept in the language cookie."""

from django.conf import settings
from django.http import HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme


def switch_language(request):
    """GET ?language=xx&next=/path: remember xx for this browser and go back to the page.

    A GET with no form token keeps every public page free of cookies until a visitor picks a
    language (the visitors' cache serves cookie-less pages); an unknown code changes nothing.
    """
    next_url = request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    code = request.GET.get("language")
    if code in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            samesite="Lax",
        )
    return response
