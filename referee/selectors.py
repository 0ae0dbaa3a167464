"""What the referee's records answer to pages of other rooms."""

from referee.models import Appeal


def open_appeals(tournament) -> list[Appeal]:
    """The tournament's appeals still filed or under review, oldest first: the finish page
    lists them beside scoring.selectors.unfinished (finishing with them open is allowed)."""
    appeals = Appeal.objects.filter(
        tournament=tournament, status__in=(Appeal.Status.FILED, Appeal.Status.UNDER_REVIEW)
    ).select_related("appellant", "session")
    return list(appeals.order_by("filed_at", "pk"))
