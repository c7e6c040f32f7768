import re

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters import actions
from characters.access import mastery_for
from characters.models import Character, GmNote
from tests.factories import (
    CharacterFactory,
    CharacterItemFactory,
    CrewFactory,
    GmNoteFactory,
    standard_playbook,
)
from tests.helpers import listen

HTMX = {"HX-Request": "true"}


@pytest.fixture
def character(table, player):
    return CharacterFactory(table=table, owner=player)


def sheet_url(character):
    return reverse("character_sheet", args=[character.table_id, character.pk])


def move_url(character, move):
    return reverse("character_move", args=[character.table_id, character.pk, move])


def fresh(character):
    return Character.objects.get(pk=character.pk)


def test_owner_marks_stress_from_the_sheet(client, character):
    client.force_login(character.owner)
    response = client.post(move_url(character, "stress"), {"amount": "1"}, headers=HTMX)
    assert response.status_code == 200
    assert "Stress 1/9" in response.content.decode()
    assert fresh(character).stress == 1


def test_another_player_cannot_edit_and_sees_no_controls(client, character, other_player):
    client.force_login(other_player)
    for move, data in [
        ("stress", {"amount": "1"}),
        ("coin", {"amount": "1"}),
        ("notes", {"notes": "x"}),
    ]:
        assert client.post(move_url(character, move), data).status_code == 403
    after = fresh(character)
    assert (after.stress, after.coin, after.notes) == (0, 0, "")
    page = client.get(sheet_url(character)).content.decode()
    assert character.name in page and 'aria-label="Stress 1 of 9"' not in page
    edit = reverse("character_edit", args=[character.table_id, character.pk])
    assert client.get(edit).status_code == 403


def test_the_gm_can_edit_any_character_at_the_table(client, character, gm):
    client.force_login(gm)
    client.post(move_url(character, "coin"), {"amount": "2"})
    client.post(
        reverse("character_edit", args=[character.table_id, character.pk]),
        {"name": "Renamed by GM", "notes": ""},
    )
    after = fresh(character)
    assert (after.coin, after.name) == (2, "Renamed by GM")


def test_outsiders_get_404(client, character, outsider):
    client.force_login(outsider)
    assert client.get(sheet_url(character)).status_code == 404
    assert client.post(move_url(character, "stress"), {"amount": "1"}).status_code == 404


def test_gm_notes_never_reach_players(client, character, gm, other_player):
    client.force_login(gm)
    client.post(move_url(character, "gm-note"), {"text": "Secretly a cultist"})
    assert GmNote.objects.get().text == "Secretly a cultist"
    assert "Secretly a cultist" in client.get(sheet_url(character)).content.decode()
    for user in (character.owner, other_player):
        client.force_login(user)
        assert "Secretly a cultist" not in client.get(sheet_url(character)).content.decode()
        response = client.post(move_url(character, "stress"), {"amount": "1"}, headers=HTMX)
        assert "Secretly a cultist" not in response.content.decode()
    client.force_login(character.owner)
    assert client.post(move_url(character, "gm-note"), {"text": "mine"}).status_code == 403


def test_gm_notes_are_never_pushed(character, gm, django_capture_on_commit_callbacks):
    GmNoteFactory(character=character, text="Secretly a cultist")
    layer = get_channel_layer()
    probes = [listen(character.table_id, is_gm) for is_gm in (False, True)]
    with django_capture_on_commit_callbacks(execute=True):
        actions.mark_stress(character=character, amount=2)
    for probe in probes:
        frame = async_to_sync(layer.receive)(probe)["html"]
        assert f'id="party-{character.pk}"' in frame and "Stress 2/9" in frame
        assert f'id="sheet-signal-{character.pk}"' in frame
        assert "cultist" not in frame


@pytest.mark.parametrize(
    "move,data,field,message",
    [
        ("set-stress", {"stress": "10"}, "stress", "Stress must be between 0 and 9."),
        ("set-stress", {"stress": "-1"}, "stress", "Stress must be between 0 and 9."),
        ("action", {"action": "hunt", "rating": "5"}, "hunt", "no higher than 3"),
        ("coin", {"amount": "5"}, "coin", "at most 4 coin"),
        ("harm", {"level": "5", "description": "Cut"}, "harm", "Harm level must be between"),
        ("withdraw", {"coin": "1"}, "stash", "the character has only 0"),
        ("xp", {"track": "charm", "amount": "1"}, "playbook_xp", "not an xp track"),
    ],
)
def test_out_of_range_values_are_refused_and_change_nothing(
    client, character, move, data, field, message
):
    client.force_login(character.owner)
    before = {f.attname: getattr(character, f.attname) for f in Character._meta.concrete_fields}
    response = client.post(move_url(character, move), data, headers=HTMX)
    assert response.status_code == 422
    page = response.content.decode()
    assert message in page and 'role="alert"' in page
    after = fresh(character)
    assert {f.attname: getattr(after, f.attname) for f in Character._meta.concrete_fields} == before


def test_refused_stress_is_answered_beside_the_track(client, character):
    client.force_login(character.owner)
    page = client.post(move_url(character, "set-stress"), {"stress": "10"}, headers=HTMX)
    html = page.content.decode()
    assert 'id="error-set_stress"' in html and 'aria-label="Stress 9 of 9"' in html


def boxes(html: str, name: str) -> list[tuple[bool, str]]:
    """The buttons of one track on the sheet, by accessible name: pressed, and what each posts."""
    found = re.findall(
        rf'aria-pressed="(true|false)"\s+aria-label="{name} \d+ of \d+"'
        r"[^>]*hx-vals='([^']*)'",
        html,
    )
    return [(pressed == "true", vals) for pressed, vals in found]


def test_the_sheet_is_played_like_paper_one_box_per_click(client, character):
    """A box marks up to it, the last marked one clears it; how many boxes comes from the
    rules (stress 9, coin 4, playbook xp 8, actions 3 without Mastery)."""
    Character.objects.filter(pk=character.pk).update(stress=3, coin=2, hunt=2, playbook_xp=1)
    client.force_login(character.owner)
    html = client.get(sheet_url(character)).content.decode()
    stress = boxes(html, "Stress")
    assert len(stress) == 9 and [on for on, _ in stress] == [True] * 3 + [False] * 6
    assert stress[2][1] == '{"stress": 2}' and stress[5][1] == '{"stress": 6}'
    coin = boxes(html, "Coin")
    assert len(coin) == 4 and coin[1][1] == '{"amount": -1}' and coin[3][1] == '{"amount": 2}'
    hunt = boxes(html, "Hunt")
    assert len(hunt) == 3 and hunt[1][1] == '{"action": "hunt", "rating": 1}'
    assert len(boxes(html, "Playbook xp")) == 8
    assert "Mark 1 stress" not in html and "hx-boost" not in html

    # What a click posts is what the action is given.
    client.post(move_url(character, "set-stress"), {"stress": "6"}, headers=HTMX)
    client.post(move_url(character, "coin"), {"amount": "-1"}, headers=HTMX)
    client.post(move_url(character, "action"), {"action": "hunt", "rating": "1"}, headers=HTMX)
    after = fresh(character)
    assert (after.stress, after.coin, after.hunt) == (6, 1, 1)


def test_action_cap_is_four_with_mastery(character, monkeypatch):
    from blades.rules.character import RuleError

    with pytest.raises(RuleError):
        actions.set_action(character=character, action="hunt", rating=4, mastery=False)
    actions.set_action(character=character, action="hunt", rating=4, mastery=True)
    assert fresh(character).hunt == 4


def test_mastery_is_read_from_the_crew_when_there_is_one(table):
    from crews import actions as crew_actions
    from crews.models import Crew
    from sessions.models import Table

    assert mastery_for(table) is False
    crew = crew_actions.create_crew(table=table, crew_type="shadows", name="Crew")
    assert mastery_for(Table.objects.get(pk=table.pk)) is False
    Crew.objects.filter(pk=crew.pk).update(upgrades={"mastery": 4})
    assert mastery_for(Table.objects.get(pk=table.pk)) is True


def test_stress_overflow_is_trauma_then_a_condition(character):
    actions.set_stress(character=character, stress=8)
    actions.mark_stress(character=character, amount=2)
    after = fresh(character)
    assert (after.stress, after.trauma_pending) == (0, 1)
    actions.choose_trauma(character=character, condition="haunted")
    after = fresh(character)
    assert (after.traumas, after.trauma_pending) == (["haunted"], 0)


def test_fourth_trauma_means_retiring(client, character):
    Character.objects.filter(pk=character.pk).update(
        traumas=["cold", "soft", "vicious"], trauma_pending=1
    )
    actions.choose_trauma(character=character, condition="reckless")
    client.force_login(character.owner)
    assert "must retire" in client.get(sheet_url(character)).content.decode()


def test_harm_overflows_a_full_row_upwards(character):
    actions.add_harm(character=character, level=1, description="Battered")
    actions.add_harm(character=character, level=1, description="Drained")
    result = actions.add_harm(character=character, level=1, description="Bruised")
    assert result.level == 2
    assert fresh(character).harm["2"] == ["Bruised"]


def test_new_harm_resets_healing_and_healing_drops_harm(character):
    actions.add_harm(character=character, level=2, description="Cut")
    actions.tick_healing(character=character, ticks=3)
    actions.add_harm(character=character, level=1, description="Tired")
    assert fresh(character).healing == 0
    actions.tick_healing(character=character, ticks=5)
    after = fresh(character)
    assert after.healing == 1 and after.harm["1"] == ["Cut"] and after.harm["2"] == []


@pytest.mark.parametrize(
    "key", ["battleborn", "focused", "fortitude", "shadow", "subterfuge", "mastermind", "warded"]
)
def test_armor_special_only_with_an_ability(character, key):
    """000 §Special Armor: "If you don't have any special abilities that use special armor,
    then you can't use that armor box at all"; each of these "may expend your special
    armor" (000: Battleborn, Focused, Shadow, Subterfuge, Mastermind, Warded;
    playbooks.json: Fortitude)."""
    from blades.rules.character import RuleError
    from tests.helpers import give_ability

    with pytest.raises(RuleError, match="Special armor"):
        actions.use_armor(character=character, box="special")
    give_ability(character, key)
    actions.use_armor(character=character, box="special")
    assert fresh(character).special_used


def test_checking_items_stops_at_the_load_limit_and_mule_raises_it(character):
    """Mule (000): "Your load limits are higher. Light: 5. Normal: 7. Heavy: 8"."""
    from blades.rules.character import RuleError

    items = [CharacterItemFactory(character=character, load=2) for _ in range(3)]
    actions.set_load(character=character, level="light")
    actions.check_item(character=character, item_id=items[0].pk, checked=True)
    with pytest.raises(RuleError, match="light load is 3"):
        actions.check_item(character=character, item_id=items[1].pk, checked=True)
    character.abilities.create(ability=character.playbook.abilities.get(key="mule"))
    actions.check_item(character=character, item_id=items[1].pk, checked=True)
    assert character.items.filter(checked=True).count() == 2
    with pytest.raises(RuleError, match="light load is 5"):
        actions.check_item(character=character, item_id=items[2].pk, checked=True)


def test_xp_fills_a_track_into_an_advance(character):
    for _ in range(6):
        actions.mark_xp(character=character, track="insight", amount=1)
    after = fresh(character)
    assert (after.insight_xp, after.insight_advances) == (0, 1)
    actions.take_action_advance(character=character, action="study", mastery=False)
    after = fresh(character)
    assert (after.study, after.insight_advances) == (1, 0)


def test_playbook_advance_buys_a_new_ability(character):
    actions.mark_xp(character=character, track="playbook", amount=8)
    ability = character.playbook.abilities.get(key="savage")
    actions.take_ability_advance(character=character, ability_id=ability.pk)
    assert character.abilities.filter(ability=ability).exists()
    assert fresh(character).playbook_advances == 0


def test_stash_and_withdraw(character):
    actions.add_coin(character=character, amount=4)
    actions.stash_coin(character=character, amount=4)
    actions.withdraw_stash(character=character, coin=2)
    after = fresh(character)
    assert (after.coin, after.stash) == (2, 0)


def test_only_the_gm_marks_a_character_dead(client, character, gm):
    client.force_login(character.owner)
    assert client.post(move_url(character, "state"), {"state": "dead"}).status_code == 403
    client.post(move_url(character, "state"), {"state": "retired"})
    assert fresh(character).state == "retired"


def grow(character, n):
    for _ in range(n):
        CharacterItemFactory(character=character)
    abilities = list(character.playbook.abilities.all()[:n])
    for ability in abilities:
        character.abilities.create(ability=ability)
    for i in range(min(n, 5)):
        actions.add_harm(character=character, level=1, description=f"Harm {i}")


@pytest.mark.parametrize("viewer", ["owner", "gm"])
def test_sheet_query_count_does_not_grow_with_items(
    client, table, gm, player, viewer, django_assert_num_queries
):
    small = CharacterFactory(table=table)
    big = CharacterFactory(table=table)
    grow(small, 1)
    grow(big, 9)

    def log_in(character):
        client.force_login(gm if viewer == "gm" else character.owner)

    log_in(small)
    with CaptureQueriesContext(connection) as one:
        assert client.get(sheet_url(small)).status_code == 200
    log_in(big)
    with django_assert_num_queries(len(one)):
        assert client.get(sheet_url(big)).status_code == 200


def test_every_change_moves_the_revision_on(character):
    actions.mark_stress(character=character, amount=1)
    item = CharacterItemFactory(character=character)
    actions.set_load(character=character, level="normal")
    actions.check_item(character=character, item_id=item.pk, checked=True)
    contact = character.contacts.create(name="Mags")
    after = actions.set_contact_stance(character=character, contact_id=contact.pk, stance="rival")
    assert after.revision == fresh(character).revision == 4


def test_the_xp_section_names_the_playbooks_own_trigger(client, table, player, other_player):
    cutter = CharacterFactory(table=table, owner=player)
    lurk = CharacterFactory(table=table, owner=other_player, playbook=standard_playbook("lurk"))
    client.force_login(player)
    cutter_page = client.get(sheet_url(cutter)).content.decode()
    lurk_page = client.get(sheet_url(lurk)).content.decode()
    assert "You addressed a challenge with violence or coercion." in cutter_page
    assert "You addressed a challenge with stealth or evasion." in lurk_page
    assert "stealth or evasion" not in cutter_page
    assert "your playbook&#x27;s xp trigger" not in cutter_page
    assert "You expressed your beliefs, drives, heritage or background." in lurk_page


def test_heavy_armor_shows_a_pip_for_each_load(client, character):
    """The pips were drawn from a two-character string: heavy armor (3 load) showed 2."""
    CharacterItemFactory(character=character, name="Heavy plate", load=3)
    client.force_login(character.owner)
    page = client.get(sheet_url(character)).content.decode()
    pips = re.search(r'aria-label="3 load" role="img">(.*?)</span>\s*</li>', page, re.S)
    assert pips.group(1).count('class="pip"') == 3


def test_counts_on_the_sheet_come_from_the_rules(client, character):
    Character.objects.filter(pk=character.pk).update(traumas=["cold"])
    client.force_login(character.owner)
    page = client.get(sheet_url(character)).content.decode()
    assert "Trauma 1/4</h3>" in page
    assert "(up to 3, 4 once the crew has Mastery)" in page
    assert "Withdraw 1 coin (2 stash)" in page


@pytest.mark.parametrize(
    ("crew_type", "upgrade"), [("shadows", "thief_rigging"), ("hawkers", "hawkers_rigging")]
)
def test_a_rigging_upgrade_adds_its_free_load_to_the_limit(
    client, character, player, crew_type, upgrade
):
    """SRD_FACTS 4.1: "Rigging crew upgrades (Assassins, Bravos, Cult, Shadows) give 2
    free load in certain item categories" (Thief Rigging: "2 free load of tools or gear");
    crew_upgrades.json, Hawker's Rigging: "1 carried item is concealed and has no load"
    (here a 2-load one)."""
    CrewFactory(table=character.table, crew_type=crew_type, upgrades={upgrade: 1})
    items = [CharacterItemFactory(character=character, load=2) for _ in range(3)]
    actions.set_load(character=character, level="light")
    client.force_login(player)
    url = move_url(character, "item")
    for item in items[:2]:  # 4 load: over light's 3, within 3 + 2 free
        assert client.post(url, {"item": item.pk, "checked": "1"}, headers=HTMX).status_code == 200
    refused = client.post(url, {"item": items[2].pk, "checked": "1"}, headers=HTMX)
    assert refused.status_code == 422
    assert "That would be 6 load; your light load is 5." in refused.content.decode()


def test_expertise_records_its_action_on_the_sheet(client, table, player, gm):
    """Expertise (000): "Choose one of your action ratings": the player chooses it once on
    the sheet, which then names it; choosing again is refused, and the GM may set it
    again (a slip of the hand)."""
    from tests.helpers import give_ability

    character = CharacterFactory(table=table, owner=player)
    client.force_login(player)
    sheet = reverse("character_sheet", args=[table.pk, character.pk])
    move = reverse("character_move", args=[table.pk, character.pk, "expertise"])
    refused = client.post(move, {"action": "prowl"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422 and "Only a character with Expertise" in refused.text
    give_ability(character, "expertise")
    assert "Expertise: the action chosen for it" in client.get(sheet).content.decode()
    assert client.post(move, {"action": "prowl"}, HTTP_HX_REQUEST="true").status_code == 200
    assert fresh(character).ability_choice("expertise") == "prowl"
    page = client.get(sheet).content.decode()
    assert "Expertise: Prowl (leading a group action with it costs at most 1 stress)" in page
    assert "Expertise: the action chosen for it" not in page
    again = client.post(move, {"action": "sway"}, HTTP_HX_REQUEST="true")
    assert again.status_code == 422 and "The GM may change it" in again.text
    client.force_login(gm)
    assert "Expertise: the action chosen for it" in client.get(sheet).content.decode()
    assert client.post(move, {"action": "sway"}, HTTP_HX_REQUEST="true").status_code == 200
    assert fresh(character).ability_choice("expertise") == "sway"
