"""The phase page reads in its reader's language: the interface, the rules' tables (plans,
activities, entanglements) and the step names; two members of one table may read it in
two languages at once."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from play import downtime, phases
from tests.helpers import Dice

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-ES,es;q=0.9"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}

# The same places of the panel in each language: the phase line, the cards' headings,
# the score's plan, the entanglement, the activities and their menu, the GM's buttons.
# (The roll log and the crew's books are drawn by their own apps; the log's lines, like
# the entanglement roll's note, are stored as they were written.)
WORDS = {
    "es": ["Golpe", "Tiempo libre", "Calor", "Fase", "Actividades de tiempo libre", "Sigilo",
           "Conseguir un recurso", "Enredos", "Cooperación", "Terminar el tiempo libre",
           "Satisfacer el vicio", "Atraer problemas", "El golpe atrajo"],
    "en": ["Score", "Downtime", "Payoff", "Phase", "Downtime activities", "Stealth",
           "Acquire asset", "Entanglements", "Cooperation", "End downtime", "Indulge vice",
           "Attract Trouble", "The score drew"],
}  # fmt: skip


@pytest.fixture
def in_downtime(table, crew, gm, pc, faction):
    """Downtime's activities, one done (a vice indulged past the stress marked). The log's
    lines are written as the GM made them, in English."""
    with translation.override("en"):
        _play_to_downtime(table, gm, pc, faction)


def _play_to_downtime(table, gm, pc, faction):
    phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(4))
    phases.end_score(table=table)
    phases.payoff(table=table, size="standard")
    phases.take_heat(table=table, exposure="contained")
    phases.roll_entanglement(table=table, roller=gm, rng=Dice(6, 6))
    phases.resolve_entanglement(table=table, roller=gm, name="Cooperation", choice="avoid")
    downtime.indulge_vice(character=pc, roller=pc.owner, rng=Dice(6, 6, 6, 6))


def shown_text(client, table, **headers) -> str:
    """The phase panel's words as a reader reads them, without the markup."""
    html = client.get(reverse("phase_panel", args=[table.pk]), **headers).content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.mark.parametrize(("language", "headers"), [("es", SPANISH), ("en", ENGLISH)])
def test_the_phase_page_reads_in_its_readers_language(
    client, table, gm, in_downtime, language, headers
):
    client.force_login(gm)
    text = shown_text(client, table, **headers)
    other = "en" if language == "es" else "es"
    assert [w for w in WORDS[language] if not re.search(rf"\b{w}\b", text)] == []
    assert [w for w in WORDS[other] if re.search(rf"\b{w}\b", text)] == []


def test_two_members_read_the_same_page_in_two_languages(client, table, gm, player, in_downtime):
    client.force_login(gm)
    assert "Actividades de tiempo libre" in shown_text(client, table, **SPANISH)
    client.force_login(player)
    english = shown_text(client, table, **ENGLISH)
    assert "Downtime activities" in english and "Tiempo libre" not in english


def test_a_field_refused_is_named_in_the_readers_language(client, table, gm, crew):
    client.force_login(gm)
    url = reverse("score_start", args=[table.pk])
    data = {"plan": "stealth", "detail": "Roof", "faction": "not-a-faction"}
    response = client.post(url, data, headers={"HX-Request": "true"}, **SPANISH)
    assert response.status_code == 422
    assert "Facción: " in response.content.decode()


def test_the_ways_out_of_an_entanglement_read_in_the_readers_language(
    client, table, crew, gm, faction
):
    with translation.override("en"):
        phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
        phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(4))
        phases.end_score(table=table)
        phases.payoff(table=table, size="standard")
        phases.take_heat(table=table, exposure="contained")
        crew.__class__.objects.filter(pk=crew.pk).update(heat=4, wanted=1)
        phases.roll_entanglement(table=table, roller=gm, rng=Dice(4))
    client.force_login(gm)
    spanish = shown_text(client, table, **SPANISH)
    assert "Represalias: Pagar 1 de reputación y 1 moneda por cada Rango de la facción" in spanish
    assert "La tirada da Represalias o Muertos inquietos: elige uno." in spanish
    english = shown_text(client, table, **ENGLISH)
    assert "Reprisals: Pay 1 rep and 1 coin per tier of the faction" in english
    assert "The roll gives Reprisals or Unquiet Dead: choose one." in english


def test_an_abilitys_reminder_reads_in_its_readers_language(client, table, gm, pc, in_downtime):
    """Issue 38: the downtime reminder "Alchemist (Nyx Brogan): …" was English to a Spanish
    reader: the reminder names the ability and gives its text as the sheet does, in the
    content's translation; the English reader still reads the English."""
    from tests.helpers import give_ability

    give_ability(pc, "alchemist")
    client.force_login(gm)
    spanish = shown_text(client, table, **SPANISH)
    assert f"Alquimista ({pc.name}): +1 nivel de resultado" in spanish
    assert "Alchemist" not in spanish
    assert f"Alchemist ({pc.name}): +1 result level" in shown_text(client, table, **ENGLISH)
