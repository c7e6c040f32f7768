"""A refusal is read in the language of whoever took the step: the rules' message is
translated when it is drawn, with the numbers the rules gave it."""

import pytest
from django.urls import reverse
from django.utils import translation

from blades.rules import character as rules
from blades.rules.errors import RuleError
from characters.actions import require_active
from tests.factories import CharacterFactory, ProfileFactory

HTMX = {"HX-Request": "true"}
SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-ES,es;q=0.9"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def too_much_stress(client, character, **headers) -> str:
    url = reverse("character_move", args=[character.table_id, character.pk, "set-stress"])
    response = client.post(url, {"stress": "10"}, headers=HTMX, **headers)
    assert response.status_code == 422
    return response.content.decode()


def test_the_same_refusal_reads_in_each_readers_language(client, table, player):
    character = CharacterFactory(table=table, owner=player)
    client.force_login(player)
    spanish = too_much_stress(client, character, **SPANISH)
    assert "Estrés debe estar entre 0 y 9." in spanish
    english = too_much_stress(client, character, **ENGLISH)
    assert "Stress must be between 0 and 9." in english
    assert "Estrés" not in english


def test_a_refusal_follows_the_language_the_user_chose(client, table, player):
    ProfileFactory(user=player)
    character = CharacterFactory(table=table, owner=player)
    client.force_login(player)
    assert "Estrés debe estar entre 0 y 9." in too_much_stress(client, character, **ENGLISH)


@pytest.mark.parametrize(
    ("refuse", "spanish"),
    [
        (
            lambda: rules.validate_creation_dots({"hunt": 2}, {"hunt": 1, "study": 3}),
            "(Cazar, Estudiar ",
        ),
        (lambda: rules.add_trauma(("cold",), "cold"), "«frío»"),
        (
            lambda: rules.use_armor(
                {"armor", "heavy"}, "heavy", armor=True, heavy=True, special=False
            ),
            "Armadura pesada ya está marcada",
        ),
    ],
)
def test_the_rules_words_a_refusal_names_read_in_its_readers_language(refuse, spanish):
    with pytest.raises(RuleError) as refused:
        refuse()
    with translation.override("es"):
        assert spanish in str(refused.value)
    with translation.override("en"):
        assert spanish not in str(refused.value)


def test_a_state_is_told_in_a_whole_sentence_not_a_lowercased_label(table):
    """Issue 38: "%(name)s is %(state)s." lowercased the translated state into another
    sentence (English grammar, and a guessed gender: "muerta")."""
    character = CharacterFactory(table=table, name="Nyx", state="dead")
    with pytest.raises(RuleError) as refused:
        require_active(character)
    with translation.override("es"):
        assert str(refused.value) == "Nyx ha muerto."
