"""How many dice a pool rolls, and whether the lowest counts, asked of the rules so no
page writes the zero-pool rule (two dice, the lowest) itself."""

from django import template

from blades.rules import dice

register = template.Library()

register.filter("takes_lowest", dice.takes_lowest)
register.filter("dice_count", dice.dice_count)


@register.filter
def counting_die(stored: list[int]) -> int:
    """Which die counts in a roll stored as [pool, *dice] (a group's or a resistance's),
    as its place among the dice: pages mark it as they mark a logged roll's."""
    pool, *faces = stored
    return dice.Roll(pool, tuple(faces)).counting_index
