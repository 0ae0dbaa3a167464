"""A tournament's rule set changed: once results are confirmed only with a recorded reason
(RuleChange), and only when every recorded table still holds under the new rules."""

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ActionRefused, refusal, rule_message
from mahjong.hands import HandError, play
from mahjong.messages import RuleError
from mahjong.presets import rules_overrides, ruleset_from
from mahjong.table import table_size_problems, validate_scores
from scoring.selectors import has_confirmed_results, recorded_tables
from tournament.changes import touch
from tournament.models import RuleChange, Tournament
from tournament.services import refuse_if_finished


@transaction.atomic
def change_rules(tournament: Tournament, ruleset: str, rules, user, reason: str = ""):
    """Set the tournament's rule set; once results are confirmed only with a recorded reason.

    Standings are always computed from the current rules, so the change recomputes everything.
    """
    try:
        new = ruleset_from(ruleset, rules)
    except RuleError as e:
        raise refusal(e) from e
    overrides = rules_overrides(new)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.ruleset == ruleset and tournament.rules == overrides:
        return tournament
    refuse_if_finished(tournament.pk)
    frozen = has_confirmed_results(tournament)
    if frozen and not reason.strip():
        raise ActionRefused(
            _("The rules are frozen: results are confirmed. Give a reason to change them."),
            field="reason",
        )
    # A table or a result the new rules would not accept (a score step, a start-points sum, a
    # three-handed table in riichi), confirmed or still a draft, would leave the tournament one
    # that no longer restores from its own file.
    for t in recorded_tables(tournament):
        problems = table_size_problems(new, len(t.winds))
        for scores in t.scores if not problems else ():
            problems = validate_scores(new, scores)
            if problems:
                break
        problem = rule_message(problems[0]) if problems else None
        if problem is None and t.hands:
            # The file computes a table's scores from its hands: they must still agree.
            try:
                given = play(new, t.hands, t.winds).scores
            except HandError as e:
                problem = rule_message(e)
            else:
                if t.scores and [given[w] for w in t.winds] != t.scores[0]:
                    problem = _("Its hands would give other scores.")
        if problem:
            raise ActionRefused(
                _(
                    "Session %(session)d, table %(table)d does not hold under these rules: "
                    "%(problem)s Correct the result first, or keep the rules."
                )
                % {"session": t.session, "table": t.table, "problem": problem},
                field="ruleset",
            )
    if frozen:
        RuleChange.objects.create(
            tournament=tournament,
            changed_by=user,
            old_ruleset=tournament.ruleset,
            old_rules=tournament.rules,
            new_ruleset=ruleset,
            new_rules=overrides,
            reason=reason.strip(),
        )
    tournament.ruleset = ruleset
    tournament.rules = overrides
    tournament.save(update_fields=["ruleset", "rules"])
    touch(tournament.pk)
    return tournament
