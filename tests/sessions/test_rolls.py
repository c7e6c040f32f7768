import random

import pytest
from django.urls import reverse

from blades.rules.rolls import RollKind
from sessions import actions
from sessions.models import Roll


class FixedDice:
    """Stands in for the system RNG: hands out the faces it was given, in order."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, low, high):
        return self.faces.pop(0)


def test_quick_roll_stores_server_dice(table, player):
    roll = actions.quick_roll(
        table=table, roller=player, kind=RollKind.ACTION, pool=3, rng=FixedDice(2, 5, 4)
    )
    roll.refresh_from_db()
    assert roll.dice == [2, 5, 4]
    assert roll.outcome == "partial"
    assert str(roll.summary) == "Partial success"


def test_zero_dice_roll_takes_the_lowest(table, player):
    roll = actions.quick_roll(
        table=table, roller=player, kind=RollKind.ACTION, pool=0, rng=FixedDice(6, 6)
    )
    assert roll.outcome == "success"


def test_posted_result_and_dice_are_ignored(client, table, player):
    client.force_login(player)
    client.post(
        reverse("roll_create", args=[table.pk]),
        {
            "kind": "fortune",
            "pool": 1,
            "dice": "[6, 6]",
            "result": "critical",
            "outcome": "critical",
        },
    )
    roll = Roll.objects.get()
    assert len(roll.dice) == 1
    assert 1 <= roll.dice[0] <= 6
    assert roll.outcome == {6: "success", 5: "partial", 4: "partial"}.get(roll.dice[0], "bad")


def test_roll_appears_in_the_page_after_reload(client, table, player, other_player):
    actions.quick_roll(
        table=table,
        roller=player,
        kind=RollKind.RESISTANCE,
        pool=2,
        note="Dodge the blade",
        rng=random.Random(4),
    )
    client.force_login(other_player)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Dodge the blade" in page
    assert player.username in page


@pytest.mark.parametrize("pool", [-1, 11, "lots"])
def test_bad_pool_is_refused_next_to_the_field(client, table, player, pool):
    client.force_login(player)
    response = client.post(
        reverse("roll_create", args=[table.pk]),
        {"kind": "fortune", "pool": pool, "note": "keep me"},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert response.status_code == 422
    assert 'id="id_pool_error"' in page
    assert 'value="keep me"' in page
    assert not Roll.objects.exists()


def test_a_roll_from_the_page_answers_with_no_content(client, table, player):
    """The roll reaches the page over the socket; the form is left as it is."""
    client.force_login(player)
    response = client.post(
        reverse("roll_create", args=[table.pk]),
        {"kind": "fortune", "pool": 2, "note": "Pick the lock"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 204 and not response.content
    assert Roll.objects.get().note == "Pick the lock"


def test_a_mended_roll_draws_the_form_again_without_its_errors(client, table, player):
    client.force_login(player)
    url = reverse("roll_create", args=[table.pk])
    refused = client.post(url, {"kind": "fortune", "pool": 12}, headers={"HX-Request": "true"})
    assert 'name="redraw"' in refused.content.decode()
    response = client.post(
        url,
        {"kind": "fortune", "pool": 3, "note": "Sent", "redraw": "1"},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "_error" not in page and 'name="redraw"' not in page and "Sent" not in page
    assert 'value="fortune" selected' in page and 'value="3"' in page


def test_player_secret_flag_is_ignored(client, table, player):
    client.force_login(player)
    client.post(
        reverse("roll_create", args=[table.pk]), {"kind": "fortune", "pool": 2, "secret": "on"}
    )
    assert Roll.objects.get().secret is False


def test_only_the_gm_is_offered_a_secret_roll(client, table, gm, player):
    url = reverse("table_detail", args=[table.pk])
    client.force_login(player)
    assert "Secret (GM only)" not in client.get(url).text
    client.force_login(gm)
    assert "Secret (GM only)" in client.get(url).text


def test_gm_secret_roll_never_reaches_a_player_page(client, table, gm, player):
    actions.quick_roll(
        table=table,
        roller=gm,
        kind=RollKind.FORTUNE,
        pool=2,
        note="Lampblack ambush",
        secret=True,
        rng=random.Random(1),
    )
    client.force_login(player)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Lampblack ambush" not in page
    client.force_login(gm)
    assert (
        "Lampblack ambush" in client.get(reverse("table_detail", args=[table.pk])).content.decode()
    )


def test_the_quick_roller_makes_no_action_roll(client, table, player):
    """Issue 13: three ways to roll an action. An action roll is the table's shared roll
    now (the GM sets position and effect); the quick roller keeps plain pools."""
    client.force_login(player)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert '<option value="action"' not in page
    refused = client.post(
        reverse("roll_create", args=[table.pk]),
        {"kind": "action", "pool": 2},
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 422 and not Roll.objects.exists()
