"""What a refused or bad request must leave as it was: every row of the desk's tables."""

from django.apps import apps
from django.db import connection

ROOMS = ("tournament", "seating", "scoring", "referee", "people", "club", "auth")


def snapshot(app_labels=ROOMS) -> dict[str, list[str]]:
    """Every row of every model of `app_labels` (history tables included), in a comparable
    form: per model, its rows' reprs, sorted.

    Plain SQL: the ORM's per-query cost made this the slowest part of the tests that take a
    snapshot before and after each request."""
    state = {}
    with connection.cursor() as cursor:
        for model in apps.get_models():
            if model._meta.app_label in app_labels:
                cursor.execute(f"SELECT * FROM {connection.ops.quote_name(model._meta.db_table)}")
                state[model._meta.label] = sorted(map(repr, cursor.fetchall()))
    return state
