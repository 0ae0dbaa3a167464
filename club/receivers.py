"""What a club rating does when something it shows changes elsewhere."""

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.changes import touch_club
from club.models import Game, GameScore, GameSeat, Member
from core.errors import ActionRefused


def people_changed(sender, person_ids, **kwargs):
    """A person's name, or a merge or split: the clubs they are members of show it anew."""
    clubs = Member.objects.filter(person_id__in=person_ids).values_list("club_id", flat=True)
    for club_id in set(clubs):
        touch_club(club_id)


def _games_of(person_id) -> set[int]:
    """The games a person sat at: a seat of a drawn table, or a score in any version."""
    scored = GameScore.objects.filter(member__person_id=person_id).values_list(
        "version__game_id", flat=True
    )
    drawn = GameSeat.objects.filter(member__person_id=person_id).values_list("game_id", flat=True)
    return set(scored) | set(drawn)


def refuse_merge(sender, kept, other, **kwargs):
    """Two people who sat at one game are two people: merged, that game would seat one person
    twice, the rating would count it twice for them, and the club's file would be refused
    on restore ("a person has two seats"). Any version counts, a superseded one too: its
    history would show one person in two seats."""
    shared = _games_of(kept.pk) & _games_of(other.pk)
    if not shared:
        return
    game = (
        Game.objects.filter(pk__in=shared)
        .select_related("club")
        .order_by("played_on", "club__name", "number", "pk")
        .first()
    )
    more = len(shared) - 1
    message = _(
        "%(kept)s and %(other)s sat at the same game (%(club)s, %(date)s, table %(table)d): "
        "one person cannot hold two seats of it."
    ) % {
        "kept": kept.name,
        "other": other.name,
        "club": game.club.name,
        "date": date_format(game.played_on, "DATE_FORMAT"),
        "table": game.number,
    }
    if more:
        message += " " + ngettext(
            "They sat together at %(n)d more game.", "They sat together at %(n)d more games.", more
        ) % {"n": more}
    raise ActionRefused(message, field="other")
