"""The shared roll's lines in the table's roll log (sessions.models.Roll).

Every die the shared roll draws goes through sessions.actions.record_roll, like every
other roll of the app, so it is one line of the one log: the table page, the sheets and
the shared screen all show it. The log is a floor below and knows nothing of action
rolls: the roll keeps the link (`ActionRoll.log`) and says here what its line reads,
compactly: who (the line's character), the action, position and effect, the dice with
the counting die, the result, and once the GM closes the roll, the consequences taken.

No clock is named in a line: a complication's clock may be hidden from the players, and
the players' log is drawn from the same row.
"""

from django.utils.translation import gettext_noop

from blades.rules import dice
from blades.rules.rolls import CONSEQUENCE_KINDS, RollKind
from blades.rules.words import Joined, Term, Words, ngettext
from sessions import actions
from sessions.models import Membership, Roll

from .models import ActionRoll, Consequence


def headline(roll: ActionRoll, result: dice.Roll) -> Words:
    return Words(
        gettext_noop("%(action)s · %(position)s / %(effect)s: %(outcome)s"),
        # The action's English name is its msgid (characters.wording marks them all).
        action=Term(roll.action.capitalize()),
        position=Term(roll.as_position.label),
        effect=Term(roll.as_effect.label),
        outcome=Term(result.outcome.label),
    )


def faces(dice) -> str:
    """The dice as a step of the roll lists them: "6, 3, 1"."""
    return ", ".join(map(str, dice))


def roll_action_dice(roll: ActionRoll, *, by: Membership, character, pool: int, rng) -> Roll:
    """The dice of an action roll (or of one participant of a group action)."""
    group = roll.kind == ActionRoll.Kind.GROUP
    return actions.record_roll(
        table_id=roll.table_id,
        roller=by.user,
        kind=RollKind.GROUP if group else RollKind.ACTION,
        pool=pool,
        summary=lambda result: headline(roll, result),
        note=roll.goal,
        character=character,
        rng=rng,
    )


def roll_resistance(consequence: Consequence, *, by: Membership, pool: int, rng) -> Roll:
    return actions.record_roll(
        table_id=consequence.roll.table_id,
        roller=by.user,
        kind=RollKind.RESISTANCE,
        pool=pool,
        note=Words(
            gettext_noop("%(attribute)s against %(consequence)s"),
            attribute=Term(consequence.resist_attribute.capitalize()),
            consequence=Term(CONSEQUENCE_KINDS[consequence.kind]),
        ),
        character=consequence.character,
        rng=rng,
    )


def roll_fortune(
    *, by: Membership, goal: str, gather_information: bool, secret: bool, pool: int, rng
) -> Roll:
    """The GM's fortune roll; a secret one is a line of the GM's log only."""
    return actions.record_roll(
        table_id=by.table_id,
        roller=by.user,
        kind=RollKind.INFORMATION if gather_information else RollKind.FORTUNE,
        pool=pool,
        note=goal,
        secret=secret,
        rng=rng,
    )


# How a resisted consequence ended, in the line's own lower case.
RESISTED = {
    "reduced": gettext_noop("reduced"),
    "avoided": gettext_noop("avoided"),
    "": gettext_noop("stands"),
}


def taken(consequence: Consequence) -> Words:
    """What one consequence cost, each detail wrapping the words before it."""
    text = Words(CONSEQUENCE_KINDS[consequence.kind])
    if consequence.kind == "harm" and consequence.harm_level:
        level = consequence.harm_landed or consequence.harm_level
        text = Words(gettext_noop("%(text)s %(level)s"), text=text, level=level)
    if consequence.description:
        text = Words(
            gettext_noop("%(text)s (%(description)s)"),
            text=text,
            description=consequence.description,
        )
    if consequence.character is not None:
        text = Words(
            gettext_noop("%(text)s to %(name)s"), text=text, name=consequence.character.name
        )
    if consequence.ticks:
        text = Words(
            ngettext("%(text)s, %(ticks)s tick", "%(text)s, %(ticks)s ticks", consequence.ticks),
            text=text,
            ticks=consequence.ticks,
        )
    if consequence.resisted:
        text = Words(
            gettext_noop("%(text)s, %(result)s"),
            text=text,
            result=Term(RESISTED[consequence.result]),
        )
    return text


def close(roll: ActionRoll) -> None:
    """The GM closed the roll: its line says what it cost."""
    if roll.log_id is None:
        return
    line = Roll.objects.get(pk=roll.log_id)
    consequences = roll.consequences.select_related("character")
    costs = Joined("; ", [taken(c) for c in consequences]) or Words(gettext_noop("no consequences"))
    actions.amend_roll(
        line, note=Words(gettext_noop("%(goal)s · %(costs)s"), goal=roll.goal, costs=costs)
    )


def undone(roll: ActionRoll) -> None:
    if roll.log_id is None:
        return
    line = Roll.objects.get(pk=roll.log_id)
    actions.amend_roll(
        line, summary=Words(gettext_noop("%(line)s (undone by the GM)"), line=line.summary)
    )
