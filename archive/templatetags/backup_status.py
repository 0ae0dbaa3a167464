"""The backups' state for the desk's pages, which do not import the archive: a template asks."""

from django import template

from archive import backups

register = template.Library()


@register.simple_tag
def backup_failure(tournament):
    """The last automatic backup of `tournament` failed (archive.backups.Failure), or None."""
    return backups.failure(tournament.pk)
