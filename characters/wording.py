"""The words a sheet shows, in the reader's language (the language active where it is
drawn).

The database keeps the English names and keys that the rules and the matches use
(characters/content.py copies them in); what a reader sees of a playbook, an ability, an
item, a friend or an option is looked up in `content.localized` by the row's key, or its
English name where it has none. A custom playbook is in its GM's words, untranslated.
blades.rules knows no Django: the words it gives the sheet (an armor box, a harm penalty)
are marked here and translated as they are shown.
"""

from functools import cache

from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from blades import content
from blades.rules import abilities as ability_rules
from blades.rules import character as rules
from blades.rules.score import CHARACTER_TRIGGERS

ACTION_NAMES = {
    "hunt": _("Hunt"),
    "study": _("Study"),
    "survey": _("Survey"),
    "tinker": _("Tinker"),
    "finesse": _("Finesse"),
    "prowl": _("Prowl"),
    "skirmish": _("Skirmish"),
    "wreck": _("Wreck"),
    "attune": _("Attune"),
    "command": _("Command"),
    "consort": _("Consort"),
    "sway": _("Sway"),
}
ATTRIBUTE_NAMES = {"insight": _("Insight"), "prowess": _("Prowess"), "resolve": _("Resolve")}
XP_TRACK_NAMES = {**ATTRIBUTE_NAMES, "playbook": _("Playbook")}
LOAD_NAMES = {"light": _("Light"), "normal": _("Normal"), "heavy": _("Heavy")}

# The rules' English words, each with its mark (tests/characters/test_wording.py checks
# that every word the rules can give the sheet is here).
RULES_WORDS = {
    rules.ARMOR_LABELS["armor"]: _("Armor"),
    rules.ARMOR_LABELS["heavy"]: _("Heavy armor"),
    rules.ARMOR_LABELS["special"]: _("Special armor"),
    rules.HARM_PENALTIES[1]: _("Reduced effect"),
    rules.HARM_PENALTIES[2]: _("−1d"),
    rules.HARM_PENALTIES[3]: _("Need help"),
    rules.HARM_PENALTIES[4]: _("Fatal"),
    ability_rules.NO_HARM_PENALTY: _("No effect"),
    # rules.retirement_fate's words
    "poor soul": _("poor soul"),
    "meager": _("meager"),
    "modest": _("modest"),
    "fine": _("fine"),
    CHARACTER_TRIGGERS["beliefs"]: _("You expressed your beliefs, drives, heritage or background"),
    CHARACTER_TRIGGERS["vice"]: _("You struggled with issues from your vice or traumas"),
    ability_rules.VENGEFUL_TRIGGER: _(
        "You got payback against someone who harmed you or someone you care about"
    ),
    rules.ENCUMBERED_WARNING: _(
        "Encumbered: carrying more than a heavy load, you can barely move."
    ),
}


# A harm's penalty inside a sentence, whole ("efecto reducido"): a translated label is not
# lowercased to fit there. One for each of the rules' HARM_PENALTIES.
HARM_PENALTY_PHRASES = {
    1: pgettext_lazy("a harm's penalty, in a sentence", "reduced effect"),
    2: pgettext_lazy("a harm's penalty, in a sentence", "−1d"),
    3: pgettext_lazy("a harm's penalty, in a sentence", "need help"),
    4: pgettext_lazy("a harm's penalty, in a sentence", "fatal"),
}


def rules_word(text: str) -> str:
    """A word of the rules in the reader's language (as it is where none is marked)."""
    return str(RULES_WORDS.get(text, text))


def language() -> str:
    return (get_language() or "en").split("-")[0]


@cache
def _by_identity(name: str, language: str) -> dict[str, dict]:
    return {content.identity(entry): entry for entry in content.localized(name, language)}


def playbook_entry(playbook) -> dict:
    """The standard playbook's content in the reader's language ({} for a custom one)."""
    if playbook.custom:
        return {}
    return _by_identity("playbooks", language()).get(playbook.key, {})


# The heading a custom playbook's friends get (the model's default): no GM wrote it.
DEFAULT_TEXTS = {"Friends and rivals": _("Friends and rivals")}


def playbook_text(playbook, field: str) -> str:
    text = playbook_entry(playbook).get(field) or getattr(playbook, field)
    return str(DEFAULT_TEXTS.get(text, text))


def ability_text(ability, field: str) -> str:
    """`ability.playbook` must be loaded with it (select_related or prefetch)."""
    if ability.playbook.custom:
        return _listed_ability_text(ability, field)
    entry = {a["key"]: a for a in playbook_entry(ability.playbook).get("abilities", [])}
    return entry.get(ability.key, {}).get(field) or getattr(ability, field)


# A custom playbook's ability taken from the list (content.custom_abilities) keeps the
# list's "text" as its description.
LISTED_FIELDS = {"name": "name", "description": "text"}


def _listed_ability_text(ability, field: str) -> str:
    """A custom playbook's ability: one from the list, as the list wrote it, reads in the
    reader's language; one its GM wrote (even under a listed name) stays as written."""
    english = _by_identity("custom_abilities", "en").get(ability.key)
    as_listed = english is not None and all(
        getattr(ability, mine) == english[theirs] for mine, theirs in LISTED_FIELDS.items()
    )
    if not as_listed:
        return getattr(ability, field)
    return _by_identity("custom_abilities", language())[ability.key][LISTED_FIELDS[field]]


OPTION_CONTENT = {"heritage": "heritages", "background": "backgrounds", "vice": "vices"}


def option_name(option) -> str:
    if option.kind == "trauma":
        return trauma_name(option.key)
    entry = _by_identity(OPTION_CONTENT[option.kind], language()).get(option.key, {})
    return entry.get("name") or option.name


def trauma_name(condition: str) -> str:
    entry = _by_identity("traumas", language()).get(condition, {})
    return entry.get("name") or condition.capitalize()


def item_name(item, playbook) -> str:
    """An item on a sheet of `playbook`: the playbook's own (special) or a standard one,
    found by its English name."""
    if not item.special:
        return _item_names(None, language()).get(item.name, item.name)
    if playbook.custom:
        return item.name
    return _item_names(playbook.key, language()).get(item.name, item.name)


@cache
def _item_names(playbook_key: str | None, language: str) -> dict[str, str]:
    """English name → shown name, of the standard items or of a playbook's."""
    if playbook_key is None:
        english, shown = content.items(), content.localized("items", language)
    else:
        english = _by_identity("playbooks", "en")[playbook_key]["items"]
        shown = _by_identity("playbooks", language)[playbook_key]["items"]
    return {e["name"]: s["name"] for e, s in zip(english, shown, strict=True)}


def friend_role(contact, playbook) -> str:
    entry = {f["name"]: f for f in playbook_entry(playbook).get("friends", [])}
    return entry.get(contact.name, {}).get("role") or contact.role


def friend_label(friend) -> str:
    """A playbook's friend as the wizard offers it: "Marlane, pugilist"."""
    role = friend_role(friend, friend.playbook)
    return f"{friend.name}, {role}" if role else friend.name


def crew_ability_name(key: str) -> str:
    crew_types = content.localized("crew_types", language())
    return {a["key"]: a["name"] for t in crew_types for a in t["abilities"]}.get(key, key)


def warnings_before_a_roll(character, encumbered: bool) -> list[str]:
    """The sheet's reminders of harm (as it is felt) and load, worded as the rules'
    `warnings_before_a_roll` words them."""
    felt = rules.harm_rows(character.felt_harm)
    warnings = [
        gettext("Level %(level)s harm (%(harm)s): %(penalty)s.")
        % {
            "level": level,
            "harm": ", ".join(felt[level]),
            "penalty": HARM_PENALTY_PHRASES[level],
        }
        for level in rules.HARM_SLOTS
        if felt[level]
    ]
    if encumbered:
        warnings.append(rules_word(rules.ENCUMBERED_WARNING))
    if ability_rules.TOUGH_AS_NAILS in character.ability_keys and any(
        rules.harm_rows(character.harm).values()
    ):
        warnings.insert(
            0, gettext("Tough as Nails: each harm's penalty is that of one level lower.")
        )
    return warnings
