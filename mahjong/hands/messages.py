"""Every English message of the hand arithmetic, in one place (riichi.py, sichuan.py).

A HandError carries one of TEMPLATES with its params; the Django layer translates the template
and fills it (core.errors.rule_message). Each template's code is its constant's name
(NOT_A_SEAT, CODES): the table page's copy of the arithmetic (static/sheet/score.js) refuses a
hand with the same code and params, and the page fills in the translation of that code from
its start-up data ({code: translation} of every template and word, sheet/views.py), so it
speaks the reader's language offline and holds no message of its own. WORDS are param values
that are themselves English words for the catalogue; they travel by their codes too.
"""

from mahjong.messages import Words, gettext_noop

# riichi.py
UNKNOWN_WIN_KEY = gettext_noop("Unknown key {key}.")
YAKUMAN_NO_HAN_FU = gettext_noop("A yakuman has no han or fu.")
YAKUMAN_COUNT = gettext_noop("The yakuman count is 1 to {most} under these rules.")
HAN_WHOLE = gettext_noop("Han is a whole number from 1 to {most} (13 and more: a yakuman).")
FU_NEEDED = gettext_noop("Up to 4 han the fu are needed.")
FU_VALUES = gettext_noop("Fu are 20, 25, or 30 to 110 in tens, not {fu}.")
BY_SELF_DRAW = Words(gettext_noop("by self-draw"))
ON_A_DISCARD = Words(gettext_noop("on a discard"))
EMPTY_CELL = gettext_noop("No hand of {han} han {fu} fu wins {how} (the scoring table is empty).")
NOT_A_SEAT = gettext_noop("{value} is not a seat at this table ({seats}).")
SEAT_LIST = gettext_noop("Must be a list of seats.")
SEAT_TWICE = gettext_noop("A seat is listed twice.")
RIICHI_HAND_OBJECT = gettext_noop("A hand is an object with a result.")
NOT_A_RESULT = gettext_noop("{value} is not a hand result ({results}).")
UNKNOWN_HAND_KEY = gettext_noop("Unknown key {key} for a hand of {result}.")
GAME_OVER = gettext_noop("The game was already over before this hand.")
WIN_NEEDS_WINNER = gettext_noop("A win needs its winner.")
ONE_SELF_DRAW = gettext_noop("Only one player wins by self-draw.")
NOT_A_DISCARDER = gettext_noop("{value} is not a discarder at this table ({seats}).")
WIN_OBJECT = gettext_noop("A win is an object with its seat.")
OWN_TILE = gettext_noop("The discarder cannot win on their own tile.")
WINS_ONCE = gettext_noop("A seat wins once in a hand.")
RIICHI_NOT_TENPAI = gettext_noop(
    "{seat} declared riichi but is not tenpai at the draw: that is a chombo."
)
NOT_RIICHI_RULES = gettext_noop("These are riichi hands; the rule set is not.")
ONE_WINNER = gettext_noop(
    "Only one player wins on a discard under these rules: the first in turn after the "
    "discarder, {seat}, takes it."
)
TRIPLE_RON_REDEAL = gettext_noop(
    "Three players winning on one discard is a redeal under these rules: record an abortive draw."
)
NO_NAGASHI = gettext_noop("These rules have no nagashi mangan: record the exhaustive draw.")
NO_PAO = gettext_noop("These rules have no responsibility (pao).")
PAO_NOT_YAKUMAN = gettext_noop("Responsibility (pao) is only for a yakuman.")
PAO_WINNER = gettext_noop("The winner cannot be responsible (pao) for their own hand.")
NO_KAN_FROM = gettext_noop(
    "Under these rules a win on the replacement tile after an open kan is a self-draw that "
    "every other player pays: leave out kan_from."
)
KAN_FROM_WINNER = gettext_noop("The winner cannot have given the tile of their own kan.")

# sichuan.py (NOT_A_SEAT above serves both games)
UNKNOWN_KEY = gettext_noop("Unknown key {key}: expected {keys}.")
MISSING = gettext_noop("Missing {key}.")
TRUE_OR_FALSE = gettext_noop("Must be true or false.")
FANS = gettext_noop("Fans must be a whole number from 0 to {maximum}, not {value}.")
SICHUAN_TABLE = gettext_noop("A Sichuan table is four winds, or three at a three-player table.")
ALREADY_OUT = gettext_noop("{seat} has already declared hu and is out of the hand.")
UNKNOWN_KONG = gettext_noop("Unknown kong {kind}: expected open, concealed or added.")
OPEN_KONG_FROM_OTHER = gettext_noop("An open kong is made on another player's discard.")
ONLY_OPEN_KONG_FROM = gettext_noop("Only an open kong is made on a discard (from).")
FROM_HAND_ADDED = gettext_noop("from_hand is only for an added kong.")
KONGS_FULL = gettext_noop("{seat} already has {count} kongs: a hand holds no more.")
HU_LIST = gettext_noop("List the players who declared hu on this tile: one or more.")
HU_SELF_DRAW_OR_FROM = gettext_noop("A hu is a self-draw or on a discard (from), not both.")
HU_NEEDS_FROM = gettext_noop("Name the discarder (from), or mark the hu a self-draw.")
HU_ON_OTHERS_TILE = gettext_noop("{key} is a hu on a tile of another player (from).")
ROB_OR_AFTER_KONG = gettext_noop("A hu robs a kong or wins on a discard after a kong, not both.")
SEVERAL_HU_ON_DISCARD = gettext_noop("Several players declare hu only on one discard.")
HU_OBJECT = gettext_noop("A hu is an object with seat and fans.")
OWN_DISCARD = gettext_noop("{seat} cannot declare hu on their own discard.")
HU_TWICE = gettext_noop("{seat} is listed twice in this hu.")
ROB_NEEDS_ADDED_KONG = gettext_noop("Robbing the kong needs an added kong as {seat}'s last event.")
AFTER_KONG_NEEDS_KONG = gettext_noop("A discard after a kong needs a kong by {seat} just before.")
STATES_OBJECT = gettext_noop("Must be an object: the state of each player who did not declare hu.")
STATE_OF_A_WINNER = gettext_noop("{seat} declared hu: only the other players have a state.")
STATE_MISSING = gettext_noop("The wall ran out: give the state of {seat}.")
# The braces are a param: the template holds no literal brace to escape.
STATE_VALUE = gettext_noop('Must be {waiting}, "not_waiting", "pig" or "pig_passive".')
DEALER_SEAT = gettext_noop("The dealer must be a seat at the table.")
SICHUAN_HAND_OBJECT = gettext_noop("A hand is an object with its events.")
EVENTS_LIST = gettext_noop("Must be a list of events.")
HAND_ENDED = gettext_noop("The hand ended when {count} players had declared hu.")
ONE_EVENT = gettext_noop("An event is one kong, hu, false_hu or dead.")
WALL_DID_NOT_RUN_OUT = gettext_noop(
    "The hand ended when {count} players had declared hu: the wall did not run out."
)
TOO_FEW_HU = gettext_noop(
    "Only {count} of {limit} players declared hu, so the wall ran out: give the state of each "
    "other player."
)
HANDS_LIST = gettext_noop("Must be a list of hands.")
# 002 §2.8.3: a dead hand
DEAD_TWICE = gettext_noop("{seat}'s hand is already dead.")
DEAD_HU = gettext_noop("{seat}'s hand is dead: a hu with it is a false hu (record a false_hu).")
DEAD_NO_CLAIM = gettext_noop("{seat}'s hand is dead: it may not claim another player's tile.")
DEAD_WAITING = gettext_noop(
    "{seat}'s hand is dead: it counts as not waiting (not_waiting, pig or pig_passive)."
)

WORDS = (BY_SELF_DRAW, ON_A_DISCARD)
CODES = {
    value: name
    for name, value in tuple(globals().items())
    if name.isupper() and isinstance(value, str)
}
TEMPLATES = tuple(
    value
    for name, value in tuple(globals().items())
    if name.isupper() and isinstance(value, str) and value not in WORDS
)
