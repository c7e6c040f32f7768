"""The sheet in its reader's language: the interface's words and the content's (playbook,
abilities, items, friends, options) alike; the stored English names stay the keys."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from blades.rules import abilities as ability_rules
from blades.rules import character as rules
from blades.rules.score import CHARACTER_TRIGGERS
from characters import wording
from characters.models import Character, Contact
from tests.factories import (
    CharacterAbilityFactory,
    CharacterFactory,
    CharacterItemFactory,
    standard_playbook,
)
from tests.helpers import wizard_answers

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-ES,es;q=0.9"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}
HTMX = {"HTTP_HX_REQUEST": "true"}

# The same things in both languages: the interface's words, then the content's.
ENGLISH_WORDS = [
    "Stress and trauma", "Harm", "Special abilities", "Load and items", "Coin and stash",
    "Notes", "Skirmish", "Insight", "Cold", "Cutter", "Battleborn", "Dangerous friends",
    "A Blade or Two", "Fine hand weapon", "pugilist", "Academic", "Faith",
    "You addressed a challenge with violence or coercion",
]  # fmt: skip
SPANISH_WORDS = [
    "Estrés y trauma", "Daño", "Habilidades especiales", "Carga y objetos", "Monedas y alijo",
    "Notas", "Pelear", "Perspicacia", "Frío", "Matón", "Nacido para la batalla",
    "Amigos peligrosos", "Una espada o dos", "Arma de mano fina", "púgil", "Académico", "Fe",
    "Afrontaste un desafío con violencia o coacción",
]  # fmt: skip


@pytest.fixture
def sheet_url(table, player):
    character = CharacterFactory(table=table, owner=player, traumas=["cold"])
    CharacterAbilityFactory(character=character)  # Battleborn, the Cutter's first
    CharacterItemFactory(character=character, name="A Blade or Two")
    CharacterItemFactory(character=character, name="Fine hand weapon", special=True)
    Contact.objects.create(character=character, name="Marlane", role="pugilist")
    return reverse("character_sheet", args=[table.pk, character.pk])


def shown(client, url, language) -> str:
    return client.get(url, **language, **HTMX).content.decode()


def has(page: str, words: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", page) is not None


def test_a_spanish_reader_reads_the_sheet_in_spanish(client, player, sheet_url):
    client.force_login(player)
    page = shown(client, sheet_url, SPANISH)
    assert [w for w in SPANISH_WORDS if not has(page, w)] == []
    assert [w for w in ENGLISH_WORDS if has(page, w)] == []


def test_an_english_reader_reads_the_same_sheet_in_english(client, player, sheet_url):
    client.force_login(player)
    page = shown(client, sheet_url, ENGLISH)
    assert [w for w in ENGLISH_WORDS if not has(page, w)] == []
    assert [w for w in SPANISH_WORDS if has(page, w)] == []


def test_a_custom_playbook_stays_in_its_gms_words(client, player, table):
    from characters import actions

    playbook = actions.create_custom_playbook(
        table=table,
        name="Tinkerer",
        xp_trigger="You built something.",
        primary="tinker",
        secondary="study",
        ability_keys=[],
        own_abilities=[("Clockwork", "Build a clockwork friend.")],
        friends=[("Marlane", "pugilist")],
        items=[("A blade or two", 1)],
    )
    character = CharacterFactory(table=table, owner=player, playbook=playbook)
    CharacterItemFactory(character=character, name="A blade or two", special=True)
    Contact.objects.create(character=character, name="Marlane", role="pugilist")
    client.force_login(player)
    page = shown(client, reverse("character_sheet", args=[table.pk, character.pk]), SPANISH)
    assert has(page, "Tinkerer") and has(page, "A blade or two") and has(page, "pugilist")
    assert has(page, "You built something") and has(page, "Estrés y trauma")
    assert has(page, "Amigos y rivales")  # the heading no GM wrote: the default's


def test_a_custom_playbooks_listed_abilities_read_in_the_readers_language(client, player, table):
    """Issue 38: a custom playbook's abilities taken from the list showed in English to a
    Spanish reader; one its GM wrote stays as written, even under a listed name."""
    from characters import actions

    playbook = actions.create_custom_playbook(
        table=table, name="Tinkerer", xp_trigger="You built something.", primary="tinker",
        secondary="study", ability_keys=["battleborn"],
        own_abilities=[("Mule", "Carry the whole workshop.")], friends=[], items=[],
    )  # fmt: skip
    character = CharacterFactory(table=table, owner=player, playbook=playbook)
    for ability in playbook.abilities.all():
        CharacterAbilityFactory(character=character, ability=ability)
    client.force_login(player)
    page = shown(client, reverse("character_sheet", args=[table.pk, character.pk]), SPANISH)
    assert has(page, "Nacido para la batalla") and has(page, "Puedes gastar tu armadura")
    assert not has(page, "Battleborn")
    assert has(page, "Mule") and has(page, "Carry the whole workshop")
    page = shown(client, reverse("character_sheet", args=[table.pk, character.pk]), ENGLISH)
    assert has(page, "Battleborn") and has(page, "Mule")


def test_every_word_the_rules_give_the_sheet_is_marked():
    given = [
        *rules.ARMOR_LABELS.values(),
        *rules.HARM_PENALTIES.values(),
        ability_rules.NO_HARM_PENALTY,
        *(rules.retirement_fate(stash) for stash in range(rules.STASH_MAX + 1)),
        *(text for key, text in CHARACTER_TRIGGERS.items() if key != "playbook"),
        ability_rules.VENGEFUL_TRIGGER,
        rules.ENCUMBERED_WARNING,
    ]
    assert [word for word in given if word not in wording.RULES_WORDS] == []
    assert wording.HARM_PENALTY_PHRASES.keys() == rules.HARM_PENALTIES.keys()


@pytest.mark.parametrize(
    ("harm", "abilities", "encumbered"),
    [
        ({}, set(), False),
        ({1: ["Bruised"], 3: ["Broken leg"]}, set(), True),
        ({2: ["Cut", "Burned"]}, {ability_rules.TOUGH_AS_NAILS}, False),
    ],
)
def test_the_sheets_warnings_are_the_rules_warnings_in_english(harm, abilities, encumbered):
    class Character:
        ability_keys = frozenset(abilities)
        felt_harm = ability_rules.felt_harm(harm, abilities)

    Character.harm = harm
    with translation.override("en"):
        worded = wording.warnings_before_a_roll(Character, encumbered)
    assert worded == ability_rules.warnings_before_a_roll(harm, abilities, encumbered)


def test_a_spanish_reader_makes_a_character_in_spanish(client, player, table):
    """Each step of the wizard names the playbooks, options, actions, abilities and friends
    in the reader's language; what it posts (keys and ids) is the same in every language."""
    client.force_login(player)
    url = reverse("character_new", args=[table.pk])
    seen = {}
    for step in wizard_answers(standard_playbook("cutter")):
        seen[step["step"]] = client.get(url, **SPANISH).content.decode()
        assert client.post(url, {**step, "nav": "next"}, **SPANISH).status_code == 302
    # Each playbook's card: its name, what it is, its first special ability.
    assert has(seen["playbook"], "Matón") and has(seen["playbook"], "Un luchador peligroso")
    assert has(seen["playbook"], "Nacido para la batalla")
    assert has(seen["heritage"], "Las Islas Daga") and has(seen["heritage"], "Herencia")
    assert has(seen["actions"], "Perspicacia") and has(seen["actions"], "Pelear")
    assert has(seen["ability"], "Nacido para la batalla")
    assert has(seen["friends"], "Marlane, púgil") and has(seen["friends"], "Amigo íntimo")
    assert has(seen["name"], "Nombre y aspecto") and has(seen["name"], "Nuevo personaje")
    english = ["Cutter", "The Dagger Isles", "Insight", "Battleborn", "pugilist", "New character"]
    assert [w for page in seen.values() for w in english if has(page, w)] == []
    assert Character.objects.get(owner=player).playbook.key == "cutter"
