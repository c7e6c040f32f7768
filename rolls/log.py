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

from blades.rules import dice
from blades.rules.rolls import RollKind
from sessions import actions
from sessions.models import Membership, Roll

from .models import ActionRoll, Consequence


def headline(roll: ActionRoll, result: dice.Roll) -> str:
    terms = f"{roll.as_position.label} / {roll.as_effect.label}"
    return f"{roll.action.capitalize()} · {terms}: {result.outcome.label}"


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
        note=f"{consequence.resist_attribute.capitalize()} against "
        f"{consequence.get_kind_display().lower()}",
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


def taken(consequence: Consequence) -> str:
    text = consequence.get_kind_display()
    if consequence.kind == "harm" and consequence.harm_level:
        text += f" {consequence.harm_landed or consequence.harm_level}"
    if consequence.description:
        text += f" ({consequence.description})"
    if consequence.character is not None:
        text += f" to {consequence.character.name}"
    if consequence.ticks:
        text += f", {consequence.ticks} tick{'s' if consequence.ticks != 1 else ''}"
    if consequence.resisted:
        text += f", {consequence.get_result_display().lower() or 'resisted'}"
    return text


def close(roll: ActionRoll) -> None:
    """The GM closed the roll: its line says what it cost."""
    if roll.log_id is None:
        return
    line = Roll.objects.get(pk=roll.log_id)
    consequences = roll.consequences.select_related("character")
    costs = "; ".join(taken(c) for c in consequences) or "no consequences"
    actions.amend_roll(line, note=f"{roll.goal} · {costs}")


def undone(roll: ActionRoll) -> None:
    if roll.log_id is None:
        return
    line = Roll.objects.get(pk=roll.log_id)
    actions.amend_roll(line, summary=f"{line.summary} (undone by the GM)")
