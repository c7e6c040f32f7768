"""The phase page as each member sees it: the entanglement asked once, refusals beside
the field at fault, and the xp review in the words of each PC's playbook."""

import re

import pytest
from django.urls import reverse

from crews.models import Crew
from play import downtime, phases
from play.models import Phase
from tests.factories import CharacterFactory, FactionFactory, standard_playbook
from tests.helpers import Dice

HX = {"HX-Request": "true"}


@pytest.fixture
def reprisals(table, crew, gm):
    """Heat 4, wanted 1, a 4 on the die: Reprisals or Unquiet Dead (the 4-5 column)."""
    faction = FactionFactory(table=table, name="Bluecoats", tier=2)
    phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(4))
    phases.end_score(table=table)
    phases.payoff(table=table, size="standard")
    phases.take_heat(table=table, exposure="contained")
    Crew.objects.filter(pk=crew.pk).update(heat=4, wanted=1)
    phases.roll_entanglement(table=table, roller=gm, rng=Dice(4))
    return faction


def _panel(client, table):
    return client.get(reverse("phase_panel", args=[table.pk])).content.decode()


def test_the_gm_taps_the_way_out_on_the_entanglements_card(client, table, gm, reprisals):
    client.force_login(gm)
    html = _panel(client, table)
    assert 'name="name"' not in html  # no second menu that must agree with the first
    cards = r'<fieldset id="ent-choice" class="ent-cards" role="radiogroup">.*?</fieldset>'
    menu = " ".join(re.search(cards, html, re.S).group().split())  # whatever the line breaks
    assert re.findall(r'<strong id="ent-card-\d">([^<]+)</strong>', menu) == [
        "Reprisals",
        "Unquiet Dead",
    ]
    # 003 Reprisals: "Pay them (1 rep and 1 coin) per Tier of the enemy".
    assert (
        '<input type="radio" class="ent-choice" name="choice" value="Reprisals:pay" '
        'data-needs="faction" required> <span><span class="visually-hidden">Reprisals: </span>'
        "Pay 1 rep and 1 coin per tier of the faction" in menu
    )
    # Each way out names what the form asks for it (issue 39): the occultist, nothing.
    assert 'value="Unquiet Dead:occultist" data-needs="" required>' in menu
    assert '<div class="ent-field" data-need="faction">' in html


def test_the_entanglement_table_is_the_books_with_the_rolled_cell_lit(
    client, table, player, reprisals
):
    """Heat 4 reads the 4/5 column; the 4 on the die, its 4/5 row."""
    client.force_login(player)
    html = _panel(client, table)
    table_html = re.search(r'<table class="ent-table">.*?</table>', html, re.S).group()
    heads = [head.strip() for head in re.findall(r'<th scope="col">([^<]+)</th>', table_html)]
    assert heads == ["Die", "Heat 0-3", "Heat 4-5", "Heat 6+"]
    lit = [
        cell.strip()
        for cell in re.findall(r'<td class="lit" aria-current="true">(.*?)<span', table_html, re.S)
    ]
    assert lit == ["Reprisals<br>Unquiet Dead"]
    assert table_html.count("(rolled)") == 1


def test_a_refused_entanglement_is_drawn_beside_the_field_with_what_was_typed(
    client, table, gm, reprisals
):
    client.force_login(gm)
    url = reverse("entanglement_resolve", args=[table.pk])
    data = {"choice": "Reprisals:pay", "faction": "", "prisoner": "Lyssa", "dice": "3"}
    response = client.post(url, data, headers=HX)
    assert response.status_code == 422
    html = response.content.decode()
    faction_field = html.index('id="ent-faction"')
    error = html.index('id="error-ent-faction"')
    assert faction_field < error < html.index('id="ent-claim"')
    assert "Choose the faction involved in Reprisals." in html
    assert html.count('role="alert"') == 1  # nothing at the top of the page
    assert 'value="Reprisals:pay" data-needs="faction" required checked>' in " ".join(html.split())
    assert 'value="Lyssa"' in html and 'id="ent-dice" name="dice" type="number"' in html
    assert re.search(r'id="ent-dice"[^>]*value="3"', html)
    assert Phase.objects.get(table=table).step == "entanglement"


def test_a_refusal_of_the_way_out_itself_goes_beside_the_menu(client, table, gm, reprisals):
    client.force_login(gm)
    url = reverse("entanglement_resolve", args=[table.pk])
    response = client.post(url, {"choice": "Arrest:pay"}, headers=HX)
    assert response.status_code == 422
    html = response.content.decode()
    assert html.index('id="ent-choice"') < html.index('id="error-ent-choice"')
    assert "Choose one of the entanglements the roll gave." in html


def test_players_read_the_ways_out_but_get_no_menu(client, table, player, reprisals):
    client.force_login(player)
    html = _panel(client, table)
    assert 'id="ent-choice"' not in html
    assert "Pay 1 rep and 1 coin per tier of the faction" in html


def test_the_xp_review_names_each_playbooks_own_trigger(client, table, gm, player, crew):
    CharacterFactory(table=table, owner=player, name="Cross", playbook=standard_playbook("cutter"))
    CharacterFactory(table=table, owner=gm, name="Slane", playbook=standard_playbook("lurk"))
    Phase.objects.create(table=table, step=Phase.Step.XP_REVIEW)
    client.force_login(gm)
    html = _panel(client, table)
    assert "You addressed a challenge with violence or coercion</legend>" in html
    assert "You addressed a challenge with stealth or evasion</legend>" in html
    assert "your playbook&#x27;s xp trigger" not in html
    # The lines every playbook shares, and the crew type's own trigger.
    assert "You expressed your beliefs, drives, heritage or background" in html
    assert "Execute a successful" in html
    client.force_login(player)
    html = _panel(client, table)
    assert "violence or coercion" in html and "stealth or evasion" not in html


@pytest.mark.parametrize(
    ("marks", "words"),
    [
        ({"plan": "advantage", "detail": "disadvantage"}, "(1 advantage, 1 disadvantage)"),
        (
            {"plan": "advantage", "friends": "advantage", "detail": "disadvantage",
             "other": "disadvantage"},
            "(2 advantages, 2 disadvantages)",
        ),
    ],
)  # fmt: skip
def test_the_engagement_counts_its_advantages_in_words(client, table, crew, gm, marks, words):
    phases.start_score(table=table, plan="stealth", detail="Roof", target_name="A vault")
    phases.roll_engagement(table=table, roller=gm, marks=marks, rng=Dice(4, 4))
    client.force_login(gm)
    assert words in _panel(client, table)


@pytest.mark.parametrize(("faces", "words"), [((1,), "Tower: 1 tick"), ((4,), "Tower: 2 ticks")])
def test_a_projects_ticks_are_counted_in_words(client, table, crew, gm, player, faces, words):
    phases.start_score(table=table, plan="stealth", detail="Roof", target_name="A vault")
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(4))
    phases.end_score(table=table, gave_up=True)
    phases.take_heat(table=table, exposure="quiet")
    phases.roll_entanglement(table=table, roller=gm, rng=Dice(6, 6))
    phases.resolve_entanglement(table=table, roller=gm, name="Cooperation", choice="avoid")
    character = CharacterFactory(table=table, owner=player, name="Cross", prowl=1)
    downtime.long_term_project(
        character=character, roller=player, action="prowl", name="Tower", rng=Dice(*faces)
    )
    client.force_login(player)
    assert words in _panel(client, table)


def test_the_payoff_and_heat_forms_take_their_numbers_from_the_rules(client, table, crew, gm):
    Crew.objects.filter(pk=crew.pk).update(tier=2)
    phases.start_score(table=table, plan="stealth", detail="Roof", target_name="A vault")
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(4))
    phases.end_score(table=table)
    client.force_login(gm)
    html = _panel(client, table)
    assert "Pay a tithe (3 coin)" in html  # crew tier + 1 (003 §Payoff)
    assert '<option value="major">Major: 10+ coin</option>' in html
    assert '<option value="standard" selected>Standard: 6 coin</option>' in html
    phases.payoff(table=table, size="standard")
    html = _panel(client, table)
    assert '<option value="loud">Loud and chaotic: 4</option>' in html
    assert "Killing (+2)" in html
