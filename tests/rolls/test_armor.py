"""Armor against a consequence: "Mark armor" only with armor to mark, special armor
spent through its ability, and Daredevil's -1d to resist what its desperate roll
brought."""

from django.urls import reverse

from rolls import actions as flow
from rolls import outcome as flow_outcome
from rolls.models import Consequence
from tests.helpers import Dice, carry_armor, fresh, give_ability, start

HTMX = {"HTTP_HX_REQUEST": "true"}


def _panel(client, user, table) -> str:
    client.force_login(user)
    return client.get(reverse("flow_panel", args=[table.pk])).content.decode()


def _harmed(ada_m, gm_m, ada, *descriptions):
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(1, 1))
    for description in descriptions:
        flow_outcome.add_consequence(
            by=gm_m, roll=roll, kind="harm", level=2, description=description
        )
    return roll


def test_mark_armor_is_offered_only_while_there_is_armor_to_mark(
    client, table, player, ada_m, gm_m, ada
):
    """ "You can use armor to reduce or avoid the consequence: mark an armor box" (001
    §Armor): no armor carried, no box to mark; once marked, none left for the next."""
    _harmed(ada_m, gm_m, ada, "Cut", "Bruise")
    assert "Mark armor" not in _panel(client, player, table)
    carry_armor(ada)
    assert _panel(client, player, table).count("Mark armor<") == 2
    flow_outcome.use_armor(by=ada_m, consequence=Consequence.objects.get(description="Cut"))
    assert "Mark armor<" not in _panel(client, player, table)


def test_special_armor_is_spent_against_a_consequence_through_its_ability(
    client, table, player, ada_m, gm_m, ada
):
    """Battleborn: "You may expend your special armor to reduce harm from an attack in
    combat" (000 §Battleborn): a control of its own, offered only with the ability and
    its box unmarked."""
    _harmed(ada_m, gm_m, ada, "Cut")
    assert "special armor" not in _panel(client, player, table)
    give_ability(ada, "battleborn")
    page = _panel(client, player, table)
    assert "Spend special armor (Battleborn)" in page and "Mark armor<" not in page
    cut = Consequence.objects.get()
    url = reverse("flow_consequence_step", args=[table.pk, cut.roll_id, cut.pk, "armor"])
    assert client.post(url, {"box": "special"}, **HTMX).status_code == 200
    assert fresh(ada).special_used and Consequence.objects.get().resisted == "armor"
    assert "Spend special armor" not in _panel(client, player, table)


def test_daredevil_resists_its_desperate_rolls_consequences_at_1d_less(ada_m, gm_m, ada):
    """Daredevil: "When you roll a desperate action, you get +1d to your roll if you also
    take -1d to any resistance rolls against consequences from your action" (000 §Lurk).
    Ada's Prowess is 3 (prowl, skirmish, finesse): she resists with 2d."""
    give_ability(ada, "daredevil")
    roll = flow.set_terms(by=gm_m, roll=start(ada_m, ada), position="desperate", effect=2)
    flow.add_ability_bonus(by=ada_m, roll=roll, bonus="dice", reason="Daredevil")
    roll = flow.roll_dice(by=ada_m, roll=roll, rng=Dice(1, 2, 3))
    assert roll.pool == 3
    cut = flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=3, description="Shot", attribute="prowess"
    )
    cut = flow_outcome.resist(by=ada_m, consequence=cut, rng=Dice(4, 5))
    assert cut.resist_dice == [2, 4, 5]
    assert "(-1d Daredevil)" in str(roll.events.last().text)


def test_a_mastermind_spends_special_armor_to_protect_a_teammate(
    client, table, other_player, ada_m, bo_m, gm_m, ada, bo
):
    """Mastermind: "Spend your special armor to protect a teammate (even from afar, via
    past preparation)" (the app's ability text): Bo marks his special armor against
    Ada's consequence, from the consequence itself; the GM judges what it did."""
    roll = _harmed(ada_m, gm_m, ada, "Cut")
    assert "with special armor (Mastermind)" not in _panel(client, other_player, table)
    give_ability(bo, "mastermind")
    assert "Protect Ada with special armor (Mastermind)" in _panel(client, other_player, table)
    cut = Consequence.objects.get()
    url = reverse("flow_consequence_step", args=[table.pk, roll.pk, cut.pk, "guard"])
    assert client.post(url, {}, **HTMX).status_code == 200
    cut = Consequence.objects.get()
    assert (cut.resisted, cut.protected_by, cut.character) == ("armor", bo, ada)
    assert fresh(bo).special_used and not fresh(ada).special_used
    flow_outcome.judge_resistance(by=gm_m, consequence=cut, avoided=False)
    assert fresh(ada).harm["1"] == ["Cut"]
    assert "with special armor (Mastermind)" not in _panel(client, other_player, table)
