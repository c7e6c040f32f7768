"""The sheet's content and the rules' words in the reader's language (characters/wording.py)."""

from django import template

from .. import wording

register = template.Library()

register.filter("playbook_text", wording.playbook_text)
register.filter("ability_text", wording.ability_text)
register.filter("option_name", wording.option_name)
register.filter("trauma_name", wording.trauma_name)
register.filter("item_name", wording.item_name)
register.filter("friend_role", wording.friend_role)
register.filter("rules_word", wording.rules_word)


@register.filter
def action_name(action: str) -> str:
    return str(wording.ACTION_NAMES[action])


@register.filter
def attribute_name(attribute: str) -> str:
    return str(wording.ATTRIBUTE_NAMES[attribute])


@register.filter
def xp_track_name(track: str) -> str:
    return str(wording.XP_TRACK_NAMES[track])


@register.filter
def load_name(level: str) -> str:
    return str(wording.LOAD_NAMES[level])


@register.filter
def armor_box(box: str) -> str:
    return wording.rules_word(wording.rules.ARMOR_LABELS[box])
