"""Mid-move (issue 35): the selectors live in scoring/selectors/hands.py until they are split."""

from scoring.selectors.hands import *  # noqa: F403
