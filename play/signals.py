"""The phase loop's news, sent by its steps (play/phases.py) in their transaction.

The journal and the Discord relay (chronicle, above) hear what happened by name, not by
guessing it from the fields a save wrote: a step may save more fields, or write in an
UPDATE, and still be heard.
"""

from django.dispatch import Signal

# sender=Phase, phase=the phase, at the step it moved to.
phase_moved = Signal()

# sender=Score, score=the score, settled=what its step settled (one of the three below).
score_settled = Signal()
PAYOFF, HEAT, ENTANGLEMENT = "payoff", "heat", "entanglement"
