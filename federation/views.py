"""The federation server's pages: what halls send (/api/publish/; docs/features/federation.md), when
a mirror last heard from its hall (/api/heard/…, read by the public pages' script), and the
organisers' keys under /federation/."""

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from core import signed
from core.errors import ActionRefused
from core.views import ask_first, show_refusal

from .forms import KeyForm
from .keys import key_text, make_key, revoke_key
from .mirrors import heard_line
from .models import Kind, Mirror, PublishingKey
from .organisers import OrganiserRequired
from .services import receive
from .tables import KeysTable, address


@csrf_exempt
@require_POST
def publish(request):
    headers = request.headers
    answer = receive(
        key_id=headers.get(signed.KEY),
        kind=headers.get(signed.KIND),
        revision=headers.get(signed.REVISION),
        signature=headers.get(signed.SIGNATURE),
        changed_at=headers.get(signed.CHANGED_AT),
        body=request.body,
    )
    return JsonResponse(answer.body, status=answer.status)


@require_GET
@never_cache
def heard(request, kind, slug):
    """{"heard": "HH:MM:SS"} in the mirrored tournament's (or club's) time zone."""
    if kind not in Kind.values:
        raise Http404
    line = heard_line(kind, slug)
    if line is None:
        raise Http404
    return JsonResponse({"heard": line["heard"], "changed": line["changed"]})


def _own_keys(user):
    return PublishingKey.objects.filter(owner=user)


class KeyList(OrganiserRequired, View):
    def get(self, request):
        keys = list(_own_keys(request.user))
        mirrors = {
            (m.kind, m.slug): m for m in Mirror.objects.filter(slug__in={k.slug for k in keys})
        }
        return render(request, "federation/keys.html", {"table": KeysTable(keys, mirrors=mirrors)})


class KeyNew(OrganiserRequired, View):
    def _render(self, request, form, status=200):
        return render(request, "federation/key_new.html", {"form": form}, status=status)

    def get(self, request):
        return self._render(request, KeyForm())

    def post(self, request):
        form = KeyForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                key = make_key(request.user, data["kind"], data["slug"], data["label"])
            except ActionRefused as e:
                show_refusal(form, e)
            else:
                # The key's text is on this answer only: never stored, never shown again.
                response = render(
                    request,
                    "federation/key_made.html",
                    {
                        "key": key,
                        "text": key_text(key),
                        "address": address(key),
                        "server": request.build_absolute_uri(reverse("public:home")).rstrip("/"),
                    },
                )
                add_never_cache_headers(response)
                return response
        return self._render(request, form, status=400)


class KeyRevoke(OrganiserRequired, View):
    def post(self, request, pk):
        key = get_object_or_404(_own_keys(request.user), pk=pk)
        here = reverse("federation:keys")
        if not key.live:
            messages.info(request, _("This key is revoked already."))
            return redirect(here)
        if request.POST.get("confirm") != "1":
            return ask_first(
                request,
                _(
                    "Revoke the key of %(address)s: its hall can publish no more; the mirror "
                    "stays as it was"
                )
                % {"address": address(key)},
                (),
                here,
            )
        revoke_key(key)
        messages.success(
            request,
            _("The key of %(address)s is revoked. Its mirror stays as the hall last sent it.")
            % {"address": address(key)},
        )
        return redirect(here)
