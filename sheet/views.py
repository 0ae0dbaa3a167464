"""The table page's views (being built: issue 24)."""

from django.http import Http404


def code_entry(request):
    raise Http404


def table_page(request, slug, number, table, key):
    raise Http404


def state(request, slug, number, table, key):
    raise Http404


def act(request, slug, number, table, key):
    raise Http404
