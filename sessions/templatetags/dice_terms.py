"""How many dice a pool rolls, and whether the lowest counts, asked of the rules so no
page writes the zero-pool rule (two dice, the lowest) itself."""

from django import template

from blades.rules import dice

register = template.Library()

register.filter("takes_lowest", dice.takes_lowest)
register.filter("dice_count", dice.dice_count)
