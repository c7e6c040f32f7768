"""Who may take a step of the phase: one predicate per question.

The steps (play/steps.py) ask them before they act, and the page (play/queries.py) asks
the same ones before it draws a control, so a control a member sees is one they may use
and a step they may not take is one the page does not offer.
"""

from characters.access import can_edit_character
from characters.models import Character
from sessions.models import Membership


def runs_phase(membership: Membership) -> bool:
    """The GM runs the loop: starts the score, rolls engagement and entanglements, applies
    payoff and heat, prices flashbacks, ends each step."""
    return membership.is_gm


def acts_for(membership: Membership, character: Character) -> bool:
    """A scoundrel's own steps (their load, paying a flashback, downtime activities, xp)
    are their player's to take, or the GM's for them."""
    return can_edit_character(membership, character)
