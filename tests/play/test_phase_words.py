"""What the phase writes (the downtime results, an entanglement's resolution, the roll
log's lines of the score and downtime) is kept as words (issue 31): a Spanish reader and
an English one read the same stored lines each in their own language, and the journal in
the table's."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from blades import content
from blades.rules.abilities import BONUS_NAMES
from chronicle import actions as journal_actions
from crews.models import Crew
from play import downtime, phases
from sessions.models import Table
from tests.helpers import Dice

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-ES,es;q=0.9"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}

RESULTS = {
    "es": [
        "A fine carriage: calidad 1 (mejorado por 1 moneda)",
        "Tunnel: 3 segmentos",
        "Reloj de curación +3",
        "Calor −2",
        "Perspicacia +1 px",
        "· Sin proveedor",
    ],
    "en": [
        "A fine carriage: quality 1 (raised for 1 coin)",
        "Tunnel: 3 ticks",
        "Healing clock +3",
        "Heat −2",
        "Insight +1 xp",
        "· Tapped",
    ],
}
RESOLUTION = {
    "es": "Entregar a alguien (encarcelamiento: busca y captura −1, calor a cero); No pasa nada",
    "en": "Hand someone over (incarceration: wanted −1, heat cleared); Nothing happens",
}
LOG_LINES = {
    "es": [
        "Sigilo contra Bluecoats",
        "Calor 6, busca y captura 1",
        "Cross cumple condena: un mes o dos",
        "Conseguir un recurso: A fine carriage",
        "Calidad 1 (mejorado por 1 moneda)",
        "Proyecto: Tunnel",
        "Recuperarse: Cross, atendido por un sanador",
        "Reducir el calor",
    ],
    "en": [
        "Stealth on Bluecoats",
        "Heat 6, wanted 1",
        "Cross serves time: a month or two",
        "Acquire asset: A fine carriage",
        "Quality 1 (raised for 1 coin)",
        "Project: Tunnel",
        "Recover: Cross, treated by a healer",
        "Reduce heat",
    ],
}


@pytest.fixture
def played(table, crew, gm, pc, player, faction):
    """An arrest (Cross handed over) and a downtime of every rolled activity, all played
    by an English GM and player."""
    journal_actions.start_session(table=table)
    with translation.override("en"):
        _arrest(table, crew, gm, pc, faction)
        _downtime(table, crew, pc, player)


def _arrest(table, crew, gm, pc, faction):
    phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(4))
    phases.end_score(table=table)
    phases.payoff(table=table, size="standard")
    phases.take_heat(table=table, exposure="contained")
    Crew.objects.filter(pk=crew.pk).update(heat=6, wanted=1, rep=10)
    phases.roll_entanglement(table=table, roller=gm, rng=Dice(6))  # heat 6+, a 6: Arrest
    phases.resolve_entanglement(
        table=table, roller=gm, name="Arrest", choice="hand_over", character=pc,
        prison_claim="hardcase", rng=Dice(4, 5),  # tier 0: the lower of two, nothing happens
    )  # fmt: skip


def _downtime(table, crew, pc, player):
    Crew.objects.filter(pk=crew.pk).update(heat=3)
    type(pc).objects.filter(pk=pc.pk).update(coin=2, study=1, prowl=1)
    pc.refresh_from_db()
    asset = downtime.acquire_asset(
        character=pc, roller=player, description="A fine carriage", rng=Dice(4, 5)
    )
    downtime.raise_result(activity=asset, coin=1)  # a 4-5 raised to a 6: tier 0 + 1
    downtime.long_term_project(
        character=pc, roller=player, action="study", name="Tunnel", rng=Dice(6)
    )
    extra = {"roller": player, "pay_with": "rep"}
    downtime.recover(character=pc, healer="npc", quality=2, rng=Dice(6, 1), **extra)
    downtime.reduce_heat(character=pc, action="prowl", rng=Dice(5), **extra)
    downtime.train(character=pc, track="insight", pay_with="rep")
    vice = downtime.indulge_vice(character=pc, rng=Dice(6, 6), **extra)
    downtime.overindulge(activity=vice, choice="tapped")


def read(client, name, table, **headers) -> str:
    """A page's words as its reader reads them, without the markup."""
    html = client.get(reverse(name, args=[table.pk]), **headers).content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def reads_only(text: str, language: str, lines: dict[str, list[str]]) -> None:
    """`text` says every line in `language`, and none in the other."""
    other = "en" if language == "es" else "es"
    assert [line for line in lines[language] if line not in text] == []
    assert [line for line in lines[other] if line in text] == []


@pytest.mark.parametrize(("language", "headers"), [("es", SPANISH), ("en", ENGLISH)])
def test_the_phase_page_reads_the_results_in_its_readers_language(
    client, table, player, played, language, headers
):
    client.force_login(player)
    shown = {lang: [*RESULTS[lang], RESOLUTION[lang]] for lang in RESULTS}
    reads_only(read(client, "phase_panel", table, **headers), language, shown)


@pytest.mark.parametrize(("language", "headers"), [("es", SPANISH), ("en", ENGLISH)])
def test_the_roll_log_reads_the_phases_lines_in_its_readers_language(
    client, table, player, played, language, headers
):
    client.force_login(player)
    reads_only(read(client, "table_detail", table, **headers), language, LOG_LINES)


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_journal_reads_them_in_the_tables_language(client, table, gm, played, language):
    Table.objects.filter(pk=table.pk).update(language=language)
    client.force_login(gm)
    reader = ENGLISH if language == "es" else SPANISH
    said = {
        "es": ["Enredo: Arresto.", RESOLUTION["es"], *RESULTS["es"]],
        "en": ["Entanglement: Arrest.", RESOLUTION["en"], *RESULTS["en"]],
    }
    text = read(client, "journal", table, **reader)
    reads_only(text, language, said)
    # What the player chose from a list is named in words, never by its key.
    assert re.findall(r"\((?:study|prowl|insight|npc)\)", text) == []


def _abilities(language: str) -> dict[str, str]:
    """Every playbook's and crew type's ability: key → its name in `language`."""
    names = {}
    for kind in ("playbooks", "crew_types"):
        for entry in content.localized(kind, language):
            names.update({a["key"]: a["name"] for a in entry["abilities"]})
    return names


@pytest.mark.parametrize("language", ["en", *content.languages()])
def test_a_bonus_dies_ability_reads_as_the_content_names_it(language):
    """A log line names the ability behind a bonus die (+1d Iron Will) as a word of the
    catalog; its translation is the content's name for that ability, so a sheet and the
    log never name one ability two ways."""
    names = _abilities(language)
    with translation.override(language):
        read_as = {key: translation.gettext(name) for key, name in BONUS_NAMES.items()}
    assert read_as == {key: names[key] for key in BONUS_NAMES}
