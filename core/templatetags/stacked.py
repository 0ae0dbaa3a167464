"""For templates/_stacked_table.html: which cells a phone's card leaves out."""

from django import template

register = template.Library()


@register.filter
def blank(value) -> bool:
    """Nothing to show: empty, or only the white space around a cell template's tags."""
    return value is None or not str(value).strip()
