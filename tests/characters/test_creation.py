import re

import pytest
from django.apps import apps
from django.urls import reverse

from characters.content import load_standard_content
from characters.models import Character, Draft, Item, Option, Playbook, SpecialAbility
from tests.factories import CharacterFactory, standard_playbook
from tests.helpers import wizard_answers as answers


def test_standard_content_is_in_the_database(db):
    assert Playbook.objects.filter(table=None).count() == 7
    cutter = standard_playbook("cutter")
    assert cutter.dots == {"skirmish": 2, "command": 1}
    assert cutter.abilities.first().name == "Battleborn"
    assert cutter.abilities.get(key="mule").mule
    assert cutter.friends.count() == 5
    assert Item.objects.filter(playbook=None, armor="heavy").get().load == 3
    assert Option.objects.filter(kind="vice").count() == 7
    assert Option.objects.filter(kind="trauma").count() == 8


def test_loading_content_again_changes_nothing(db):
    before = (Playbook.objects.count(), SpecialAbility.objects.count(), Item.objects.count())
    load_standard_content(apps)
    assert (
        Playbook.objects.count(),
        SpecialAbility.objects.count(),
        Item.objects.count(),
    ) == before


def wizard_url(table):
    return reverse("character_new", args=[table.pk])


def complete_wizard(client, table, playbook):
    response = None
    for step in answers(playbook):
        response = client.post(wizard_url(table), {**step, "nav": "next"})
        assert response.status_code == 302, response.content.decode()[:2000]
    return response


def test_wizard_makes_a_character_with_a_standard_playbook(client, table, player):
    client.force_login(player)
    complete_wizard(client, table, standard_playbook("cutter"))
    character = Character.objects.get(owner=player)
    assert (character.name, character.alias, character.heritage.key) == (
        "Vex",
        "the Knife",
        "skovlan",
    )
    assert sum(character.ratings.values()) == 7
    assert character.skirmish == 2 and character.hunt == 1  # hunt is the first free action
    assert [a.ability.name for a in character.abilities.all()] == ["Battleborn"]
    stances = sorted(c.stance for c in character.contacts.all())
    assert stances == ["", "", "", "friend", "rival"]
    assert character.items.filter(special=True).count() == 6
    assert character.items.filter(special=False).count() == 16  # Spiritbane is the Cutter's
    assert not Draft.objects.exists()
    # The table page now lists the new character in the party.
    assert "Vex" in client.get(reverse("table_detail", args=[table.pk])).content.decode()


def test_each_playbook_is_a_card_with_its_ability_and_xp_trigger(client, table, player):
    """Issue 40: a playbook is chosen from cards, each showing its special ability (the
    one the book puts first) and its xp trigger, read as the radio's description."""
    client.force_login(player)
    page = client.get(wizard_url(table)).content.decode()
    cutter = standard_playbook("cutter")
    assert page.count('class="pick-card"') == Playbook.objects.filter(table=None).count()
    assert "Battleborn: Spend your special armor" in page
    assert "You addressed a challenge with violence or coercion." in page
    assert f'value="{cutter.pk}" id="id_playbook_0"' in page
    assert 'aria-labelledby="id_playbook_0-title id_playbook_0-gist"' in page
    assert 'aria-describedby="id_playbook_0-details"' in page


def test_no_playbook_chosen_is_refused_beside_the_cards(client, table, player):
    client.force_login(player)
    response = client.post(wizard_url(table), {"step": "playbook", "nav": "next"})
    assert response.status_code == 422
    page = response.content.decode()
    assert 'id="id_playbook_error" role="alert"' in page
    assert 'aria-describedby="id_playbook_error"' in page
    assert Draft.objects.get(user=player).step == "playbook"


def test_going_back_keeps_what_was_typed(client, table, player):
    client.force_login(player)
    playbook = standard_playbook("lurk")
    steps = answers(playbook)
    client.post(wizard_url(table), {**steps[0], "nav": "next"})
    client.post(wizard_url(table), {**steps[1], "nav": "next"})
    client.post(
        wizard_url(table), {"step": "background", "background_detail": "Half typed", "nav": "back"}
    )
    page = client.get(wizard_url(table)).content.decode()
    assert 'value="Miner&#x27;s child"' in page
    client.post(wizard_url(table), {**steps[1], "nav": "next"})
    assert 'value="Half typed"' in client.get(wizard_url(table)).content.decode()


def test_first_ability_is_preselected(client, table, player):
    client.force_login(player)
    playbook = standard_playbook("whisper")
    for step in answers(playbook)[:4]:
        client.post(wizard_url(table), {**step, "nav": "next"})
    page = client.get(wizard_url(table)).content.decode()
    first = playbook.abilities.first().pk
    assert f'value="{first}" id="id_ability_0" checked' in page or (
        f'value="{first}"' in page and "checked" in page
    )


def reach_actions_step(client, table, playbook):
    for step in answers(playbook)[:3]:
        client.post(wizard_url(table), {**step, "nav": "next"})


def test_dots_over_budget_are_refused_at_the_step(client, table, player):
    client.force_login(player)
    reach_actions_step(client, table, standard_playbook("cutter"))
    response = client.post(
        wizard_url(table),
        {"step": "actions", "hunt": 2, "survey": 2, "prowl": 1, "nav": "next"},
    )
    assert response.status_code == 422
    assert "Add exactly 4 action dots" in response.content.decode()
    assert Draft.objects.get().step == "actions"


def test_action_above_two_is_refused_at_its_field(client, table, player):
    client.force_login(player)
    reach_actions_step(client, table, standard_playbook("cutter"))
    response = client.post(
        wizard_url(table), {"step": "actions", "skirmish": 1, "hunt": 3, "nav": "next"}
    )
    page = response.content.decode()
    assert response.status_code == 422
    assert 'id="id_skirmish_error"' in page and 'id="id_hunt_error"' in page
    assert not Character.objects.exists()


def test_rival_cannot_be_the_close_friend(client, table, player):
    client.force_login(player)
    playbook = standard_playbook("spider")
    steps = answers(playbook)
    for step in steps[:5]:
        client.post(wizard_url(table), {**step, "nav": "next"})
    friend = steps[5]["close_friend"]
    response = client.post(
        wizard_url(table),
        {"step": "friends", "close_friend": friend, "rival": friend, "nav": "next"},
    )
    assert response.status_code == 422
    assert "cannot also be your close friend" in response.content.decode()


def test_a_player_with_a_character_goes_to_its_sheet(client, table, player):
    character = CharacterFactory(table=table, owner=player)
    client.force_login(player)
    response = client.get(wizard_url(table))
    assert response.url == reverse("character_sheet", args=[table.pk, character.pk])


def test_a_retired_character_makes_room_for_a_new_one(client, table, player):
    CharacterFactory(table=table, owner=player, state="retired")
    client.force_login(player)
    complete_wizard(client, table, standard_playbook("hound"))
    assert Character.objects.filter(owner=player, state="active").count() == 1


def custom_form(**changes):
    data = {
        "name": "Tinkerer",
        "xp_trigger": "You addressed a challenge with ingenuity.",
        "primary": "tinker",
        "secondary": "wreck",
        "abilities": ["mule", "saboteur", "scout", "focused", "expertise", "reflexes"],
        "own_abilities": "Clockwork Hand: +1d to Wreck with your steel fist.",
    }
    for n in range(1, 6):
        data[f"friend_{n}"] = f"Friend {n}, fence"
        data[f"item_{n}"] = f"Gadget {n}"
        data[f"item_{n}_load"] = 1
    data.update(changes)
    return data


def test_gm_makes_a_custom_playbook_and_a_player_uses_it(client, table, gm, player):
    client.force_login(gm)
    response = client.post(reverse("custom_playbook_new", args=[table.pk]), custom_form())
    assert response.status_code == 302
    playbook = Playbook.objects.get(table=table)
    assert playbook.dots == {"tinker": 2, "wreck": 1}
    assert playbook.abilities.count() == 7 and playbook.abilities.get(key="mule").mule
    assert playbook.friends.count() == 5 and playbook.items.count() == 5
    client.force_login(player)
    complete_wizard(client, table, playbook)
    character = Character.objects.get(owner=player)
    assert character.playbook == playbook and character.tinker == 2


def test_custom_playbook_needs_exactly_seven_abilities(client, table, gm):
    client.force_login(gm)
    response = client.post(
        reverse("custom_playbook_new", args=[table.pk]), custom_form(own_abilities="")
    )
    assert response.status_code == 422
    assert "exactly 7 special abilities" in response.content.decode()
    assert not Playbook.objects.filter(table=table).exists()


def parts(html: str) -> dict[str, str]:
    """Each fold of the custom playbook page by its id, with its opening tag and summary."""
    return {
        key: opening
        for opening, key in re.findall(
            r'(<details class="[^"]*playbook-part[^"]*" id="part-(\w+)"[^>]*>.*?</summary>)',
            html,
            re.S,
        )
    }


def test_the_custom_playbook_page_folds_into_the_parts_of_a_playbook(client, table, gm):
    client.force_login(gm)
    page = client.get(reverse("custom_playbook_new", args=[table.pk])).content.decode()
    folds = parts(page)
    assert list(folds) == ["concept", "abilities", "xp", "items", "friends", "actions"]
    assert [key for key, fold in folds.items() if " open>" in fold] == ["concept"]
    assert "Not written yet" in folds["concept"] and "0 of 7" in folds["abilities"]
    assert "Not chosen yet" in folds["actions"]
    # A list of abilities is chosen as cards, each read with its text.
    assert 'class="pick-card" for="id_abilities_0"' in page


def test_a_refused_part_opens_with_what_was_typed_and_says_what_is_filled(client, table, gm):
    client.force_login(gm)
    response = client.post(
        reverse("custom_playbook_new", args=[table.pk]),
        custom_form(own_abilities="Clockwork Hand without a colon", item_3=""),
    )
    assert response.status_code == 422
    page = response.content.decode()
    folds = parts(page)
    assert [key for key, fold in folds.items() if " open>" in fold] == ["abilities", "items"]
    assert "Needs a fix" in folds["abilities"] and "Needs a fix" not in folds["xp"]
    assert "Tinkerer" in folds["concept"] and "4 of 5" in folds["items"]
    assert "Tinker, 2 dots; Wreck, 1 dot" in folds["actions"]
    assert "Clockwork Hand without a colon</textarea>" in page
    assert re.search(r'<input[^>]*value="saboteur"[^>]*checked', page)


def test_only_the_gm_makes_custom_playbooks(client, table, player):
    client.force_login(player)
    response = client.post(reverse("custom_playbook_new", args=[table.pk]), custom_form())
    assert response.status_code == 403


def test_custom_playbooks_stay_at_their_table(client, table, gm, outsider):
    from tests.factories import MembershipFactory, TableFactory

    client.force_login(gm)
    client.post(reverse("custom_playbook_new", args=[table.pk]), custom_form())
    other = TableFactory()
    MembershipFactory(table=other, user=outsider)
    client.force_login(outsider)
    page = client.get(wizard_url(other)).content.decode()
    assert "Cutter" in page and "Tinkerer" not in page


@pytest.mark.parametrize(
    ("playbook", "charms"),
    [("cutter", 1), ("hound", 1), ("lurk", 1), ("slide", 1), ("spider", 1), ("leech", 1)],
)
def test_spiritbane_charm_is_carried_once(client, table, player, playbook, charms):
    """Issue 14 item 23: Cutter, Hound, Lurk, Slide and Spider list the Spiritbane charm as
    a playbook item and it is a standard item too; a sheet carries it once."""
    client.force_login(player)
    complete_wizard(client, table, standard_playbook(playbook))
    items = Character.objects.get(owner=player).items.filter(name__iexact="Spiritbane charm")
    assert items.count() == charms


def test_action_dots_are_grouped_under_their_attribute_with_the_count(client, table, player):
    client.force_login(player)
    reach_actions_step(client, table, standard_playbook("cutter"))
    page = client.get(wizard_url(table)).content.decode()
    assert page.index("<legend>Insight</legend>") < page.index("Hunt 1 of 2 dots")
    assert page.index("Hunt 1 of 2 dots") < page.index("<legend>Prowess</legend>")
    assert "4 dots left" in page
    # The playbook's two Skirmish dots leave nothing to choose but the dots it gives.
    assert "Skirmish 2 of 2 dots" in page and "Skirmish 0 of 2 dots" not in page
    assert "Command 1 of 2 dots" in page and "Command 0 of 2 dots" not in page


def test_a_refused_over_spend_keeps_the_dots_chosen(client, table, player):
    client.force_login(player)
    reach_actions_step(client, table, standard_playbook("cutter"))
    chosen = {"hunt": 2, "study": 2, "prowl": 1}
    response = client.post(wizard_url(table), {"step": "actions", **chosen, "nav": "next"})
    page = response.content.decode()
    assert response.status_code == 422
    assert "1 dot too many" in page
    assert 'id="dots-error" role="alert">Add exactly 4 action dots' in page
    for action, added in chosen.items():
        assert f'name="{action}" value="{added}" data-dots checked' in " ".join(page.split())
