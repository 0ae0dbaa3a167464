"""The penalties with what each is worth under the tournament's current rules (the pure
mahjong.penalties works it out): the desk's and the referee's logs, the printouts, the workbook
and the standings read these, so they cannot disagree."""

from collections import defaultdict
from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from core.errors import rule_message
from core.numbers import plain_number
from mahjong.messages import RuleError
from mahjong.penalties import MINOR, Resolved, resolve
from mahjong.penalties import unit as penalty_unit
from mahjong.standings import PenaltyRow
from scoring.models import Penalty


@dataclass(frozen=True)
class PenaltyWorth:
    """A penalty and what it is worth under the tournament's current rules: a Resolved, the
    RuleError it raises now (a rule change made it invalid), or None when it is void. A void
    one keeps what it would be worth in its place (`voided_worth`), which the pages strike
    through: it counts nowhere."""

    penalty: Penalty
    worth: Resolved | RuleError | None
    voided_worth: Resolved | RuleError | None = None
    unit: str = ""  # the unit its amount is in, by its stage (mahjong.penalties.unit), English

    @property
    def counts(self) -> bool:
        """Live and valid under the current rules: the standings deduct it."""
        return isinstance(self.worth, Resolved)

    @property
    def text(self) -> str:
        return "" if self.worth is None else worth_text(self.worth, self.unit)

    @property
    def summary(self) -> str:
        """What the penalty was and what it is worth, in a line: "late arrival · 5 min ·
        −8 GP (before placement)"."""
        p = self.penalty
        what = p.get_kind_display()
        if p.minutes:
            what += " · " + _("%(minutes)s min") % {"minutes": p.minutes}
        if self.worth is not None:
            what += " · " + self.text
        elif self.voided_worth is not None:  # what it would be worth: counted nowhere
            what += " · " + _("%(worth)s, not counted") % {"worth": self.voided_text}
        return what

    @property
    def voided_text(self) -> str:
        return "" if self.voided_worth is None else worth_text(self.voided_worth, self.unit)


def penalties_with_worth(tournament, session=None) -> list[PenaltyWorth]:
    """Every penalty of the tournament (or of one session), void ones too, in the order they
    were recorded, each with its worth. One query.

    A minor violation takes its place on the progressive scale by its order among the player's
    live ones in the session (002 §2.8.2), which is why the worth is worked out here, over the
    whole session in recorded order, and never for a filtered list.
    """
    penalties = Penalty.objects.filter(session__tournament=tournament)
    if session is not None:
        penalties = penalties.filter(session=session)
    penalties = penalties.select_related(
        "session", "table", "player", "recorded_by", "voided_by"
    ).order_by("recorded_at", "pk")
    rules = tournament.rule_set()
    out, minors = [], defaultdict(int)
    for p in penalties:
        void = p.voided_at is not None
        # A void minor violation takes no place on the scale: its worth is the next place's.
        order = minors[(p.session_id, p.player_id)] + 1
        if p.kind == MINOR and not void:
            minors[(p.session_id, p.player_id)] = order
        try:
            worth = resolve(
                rules,
                p.kind,
                minutes=p.minutes,
                amount=plain_number(p.amount),
                order=order,
                stage=p.stage or None,
            )
        except RuleError as e:
            worth = e
        named = penalty_unit(rules, worth.stage) if isinstance(worth, Resolved) else ""
        out.append(
            PenaltyWorth(p, None, worth, named) if void else PenaltyWorth(p, worth, None, named)
        )
    return out


def worth_if_recorded(session, player, kind, *, minutes=None, amount=None, stage=None) -> str:
    """What a penalty would be worth if recorded now, in the words penalties_with_worth would
    then give it (a minor violation takes the next place on the player's scale in the
    session), or "" when the rules refuse it: the referee's confirmation says it first."""
    order = 1
    if kind == MINOR:
        live = Penalty.objects.filter(session=session, player=player, kind=MINOR, voided_at=None)
        order = live.count() + 1
    rules = session.tournament.rule_set()
    try:
        worth = resolve(
            rules,
            kind,
            minutes=minutes,
            amount=plain_number(amount),
            order=order,
            stage=stage or None,
        )
    except RuleError:
        return ""
    return worth_text(worth, penalty_unit(rules, worth.stage))


def penalty_rows(tournament) -> list[PenaltyRow]:
    """The tournament's live penalties as the standings take them. One not valid under the
    current rules is left out; the log shows it as such."""
    return [
        PenaltyRow(
            w.penalty.session.number,
            w.penalty.player.key,
            w.worth.amount,
            w.worth.stage,
            w.penalty.kind,
            w.worth.fixed,
        )
        for w in penalties_with_worth(tournament)
        if w.counts
    ]


def worth_text(worth, unit: str = "") -> str:
    """A penalty's worth (or the RuleError it raised) for a person: amount, its `unit` (the
    English name mahjong.penalties.unit gives) and stage: "−8 GP (before placement)"."""
    if isinstance(worth, RuleError):
        return _("not valid under the current rules: %(problem)s") % {
            "problem": rule_message(worth)
        }
    if worth.fixed:
        return _("fixed result for the session (a substitute plays)")
    stage = _("before placement") if worth.stage == "before" else _("after placement")
    amount = number_format(worth.amount, force_grouping=True)
    if unit:
        amount = _("%(amount)s %(unit)s") % {"amount": amount, "unit": _(unit)}
    return f"{amount} ({stage})"
