"""Inputs that answered 500, and ids a player could reach that were not theirs (issue 12).

Each case posts what a browser or a raw request can send, and expects a 4xx with the
message at its control, the books untouched.
"""

import pytest
from django.urls import reverse

from characters.models import Character, CharacterItem, Draft
from crews import actions as crew_actions
from crews.models import Crew
from play import phases
from play.models import DowntimeActivity
from sessions.models import Clock, Roll
from tests.factories import (
    CharacterFactory,
    CharacterItemFactory,
    ClockFactory,
    FactionFactory,
    TableFactory,
)

HX = {"HX-Request": "true"}
HUGE = "99999999999999999999999"


class FixedDice:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, low, high):
        return self.faces.pop(0)


@pytest.fixture
def pc(table, player):
    return CharacterFactory(table=table, owner=player, name="Cross")


@pytest.fixture
def crew(table):
    return crew_actions.create_crew(table=table, crew_type="shadows", name="The Bane")


@pytest.fixture
def downtime(table, crew, gm):
    """The table's phase at downtime activities."""
    faction = FactionFactory(table=table, name="Bluecoats")
    phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=FixedDice(4))
    phases.end_score(table=table)
    phases.payoff(table=table, size="standard")
    phases.take_heat(table=table, exposure="contained")
    phases.roll_entanglement(table=table, roller=gm, rng=FixedDice(6, 6))
    phases.resolve_entanglement(table=table, roller=gm, name="Cooperation", choice="avoid")


def books(table) -> tuple:
    crew = Crew.objects.filter(table=table).values().first()
    return (
        crew,
        list(Clock.objects.filter(table=table).order_by("pk").values()),
        list(Character.objects.filter(table=table).order_by("pk").values()),
        list(CharacterItem.objects.order_by("pk").values()),
        Roll.objects.filter(table=table).count(),
        DowntimeActivity.objects.count(),
    )


def refused(response, *words: str) -> str:
    assert 400 <= response.status_code < 500, response.status_code
    page = response.content.decode()
    for word in words:
        assert word in page, word
    return page


# --- Ownership: leak 3 ---------------------------------------------------------------


def test_a_player_cannot_tick_a_gm_only_clock_through_a_downtime_project(
    client, table, pc, player, downtime
):
    hidden = ClockFactory(table=table, name="Zq-hidden", kind="project", visibility="gm")
    client.force_login(player)
    before = books(table)
    response = client.post(
        reverse("downtime_activity", args=[table.pk, pc.pk]),
        {"kind": "project", "clock": hidden.pk, "action": "skirmish"},
        headers=HX,
    )
    assert 400 <= response.status_code < 500
    assert b"Zq-hidden" not in response.content
    assert Clock.objects.get(pk=hidden.pk).filled == 0
    assert books(table) == before


def test_a_project_clock_of_another_table_is_not_found(client, table, pc, player, downtime):
    foreign = ClockFactory(table=TableFactory(), kind="project")
    client.force_login(player)
    response = client.post(
        reverse("downtime_activity", args=[table.pk, pc.pk]),
        {"kind": "project", "clock": foreign.pk, "action": "skirmish"},
        headers=HX,
    )
    assert 400 <= response.status_code < 500
    assert Clock.objects.get(pk=foreign.pk).filled == 0


def test_a_player_still_ticks_a_visible_project_clock(client, table, pc, player, downtime):
    clock = ClockFactory(table=table, name="Tunnel", kind="project", segments=12)
    client.force_login(player)
    response = client.post(
        reverse("downtime_activity", args=[table.pk, pc.pk]),
        {"kind": "project", "clock": clock.pk, "action": "skirmish"},
        headers=HX,
    )
    assert response.status_code == 200
    assert DowntimeActivity.objects.get().clock_id == clock.pk


# --- Numbers that are not numbers ------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "project", "clock": "abc", "action": "skirmish"},
        {"kind": "project", "clock": "1.5", "action": "skirmish"},
        {"kind": "project", "clock": HUGE, "action": "skirmish"},
        {"kind": "recover", "healer": "pc", "healer_character": "abc"},
        {"kind": "recover", "healer": "pc", "healer_character": HUGE},
        {"kind": "recover", "healer": "npc", "quality": HUGE},
        {"kind": "project", "clock_name": "New", "segments": HUGE, "action": "skirmish"},
    ],
)
def test_downtime_refuses_numbers_that_are_not_ids(client, table, pc, player, downtime, fields):
    client.force_login(player)
    before = books(table)
    response = client.post(reverse("downtime_activity", args=[table.pk, pc.pk]), fields, headers=HX)
    refused(response)
    assert books(table) == before


@pytest.mark.parametrize("character", ["abc", "2.5", HUGE, "-1"])
def test_flashback_refuses_a_character_that_is_not_an_id(client, table, gm, pc, crew, character):
    phases.start_score(table=table, plan="stealth", detail="Roof", target_name="A vault")
    client.force_login(gm)
    before = books(table)
    response = client.post(
        reverse("score_flashback", args=[table.pk]),
        {"character": character, "stress": "1", "note": "Bribed the guard"},
        headers=HX,
    )
    refused(response, "Bribed the guard")
    assert books(table) == before


def test_payoff_refuses_a_huge_extra(client, table, gm, crew):
    phases.start_score(table=table, plan="stealth", detail="Roof", target_name="A vault")
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=FixedDice(4))
    phases.end_score(table=table)
    client.force_login(gm)
    before = books(table)
    response = client.post(
        reverse("phase_payoff", args=[table.pk]), {"size": "major", "extra": HUGE}, headers=HX
    )
    refused(response)
    assert books(table) == before


@pytest.mark.parametrize("amount", [HUGE, "-" + HUGE, "1.5", "1e9"])
def test_sheet_xp_refuses_a_huge_or_broken_amount(client, table, pc, player, amount):
    client.force_login(player)
    before = books(table)
    response = client.post(
        reverse("character_move", args=[table.pk, pc.pk, "xp"]),
        {"track": "insight", "amount": amount},
        headers=HX,
    )
    refused(response)
    assert books(table) == before


@pytest.mark.parametrize("move,fields", [("coin", {"amount": HUGE}), ("stress", {"amount": HUGE})])
def test_sheet_counts_are_bounded(client, table, pc, player, move, fields):
    client.force_login(player)
    before = books(table)
    response = client.post(
        reverse("character_move", args=[table.pk, pc.pk, move]), fields, headers=HX
    )
    refused(response)
    assert books(table) == before


# --- The sheet's item checks -------------------------------------------------------------


def test_checking_an_item_without_a_load_is_refused_beside_the_items(client, table, pc, player):
    item = CharacterItemFactory(character=pc, load=1)
    client.force_login(player)
    response = client.post(
        reverse("character_move", args=[table.pk, pc.pk, "item"]),
        {"item": item.pk, "checked": "1"},
        headers=HX,
    )
    refused(response, "Choose a load")
    assert not CharacterItem.objects.get(pk=item.pk).checked


@pytest.mark.parametrize("item", ["abc", "0", HUGE, "foreign"])
def test_checking_an_item_that_is_not_on_the_sheet_is_refused(client, table, pc, player, item):
    Character.objects.filter(pk=pc.pk).update(load="normal")
    foreign = CharacterItemFactory(character=CharacterFactory(table=TableFactory()))
    client.force_login(player)
    response = client.post(
        reverse("character_move", args=[table.pk, pc.pk, "item"]),
        {"item": foreign.pk if item == "foreign" else item, "checked": "1"},
        headers=HX,
    )
    refused(response)
    assert not CharacterItem.objects.filter(checked=True).exists()


def test_push_and_bargain_together_are_refused_and_the_sheet_no_longer_rolls(
    client, table, pc, player, gm
):
    """The 500 came from the sheet's own action roll, which is gone: the sheet starts the
    shared roll, where a push for the die and the bargain together are refused."""
    from rolls import actions as flow
    from tests.helpers import member

    client.force_login(player)
    before = books(table)
    response = client.post(
        reverse("character_move", args=[table.pk, pc.pk, "roll"]),
        {"action": "skirmish", "position": "risky", "effect": "standard", "push": "1"}
        | {"bargain": "1"},
        headers=HX,
    )
    assert response.status_code == 404
    roll = flow.start_roll(by=member(table, player), character=pc, goal="win", action="skirmish")
    flow.offer_bargain(by=member(table, gm), roll=roll, text="Owe the Red Sashes")
    flow.set_push(by=member(table, player), roll=roll, dice_=True, effect=False)
    response = client.post(
        reverse("flow_step", args=[table.pk, roll.pk, "accept-bargain"]), headers=HX
    )
    refused(response, "not both")
    assert books(table) == before and not Roll.objects.exists()


def test_a_long_harm_description_is_refused_and_kept_in_the_form(client, table, pc, player):
    client.force_login(player)
    long = "x" * 10_000
    response = client.post(
        reverse("character_move", args=[table.pk, pc.pk, "harm"]),
        {"level": "1", "description": long},
        headers=HX,
    )
    refused(response)
    assert Character.objects.get(pk=pc.pk).harm == pc.harm


# --- The creation wizard ------------------------------------------------------------


def wizard(table):
    return reverse("character_new", args=[table.pk])


def test_the_wizard_without_a_playbook_asks_for_one_and_still_opens(client, table, player):
    client.force_login(player)
    response = client.post(wizard(table), {"step": "playbook", "playbook": "", "nav": "next"})
    refused(response, "playbook")
    assert client.get(wizard(table)).status_code == 200


def test_the_wizard_with_a_playbook_of_another_table_asks_again(client, table, player):
    from characters.models import Playbook

    other = Playbook.objects.create(
        table=TableFactory(), key="foreign", name="Zq-foreign", dots={"hunt": 2}, xp_trigger="x"
    )
    client.force_login(player)
    response = client.post(wizard(table), {"step": "playbook", "playbook": other.pk, "nav": "next"})
    refused(response)
    page = client.get(wizard(table))
    assert page.status_code == 200 and b"Zq-foreign" not in page.content
    response = client.post(wizard(table), {"step": "ability", "nav": "next"})
    assert response.status_code < 500 and b"Zq-foreign" not in response.content


@pytest.mark.parametrize(
    "body,content_type",
    [
        (b"", "application/x-www-form-urlencoded"),
        (b'{"step": "playbook", "playbook": 1}', "application/json"),
        (b"step=playbook&playbook=\xff\xfe", "application/x-www-form-urlencoded"),
        (b"step=playbook&playbook=1%00", "application/x-www-form-urlencoded"),
        (b"step=actions%00&nav=next", "application/x-www-form-urlencoded"),
    ],
)
def test_the_wizard_survives_hostile_bodies(client, table, player, body, content_type):
    client.force_login(player)
    response = client.post(wizard(table), body, content_type=content_type)
    assert response.status_code < 500
    assert client.get(wizard(table)).status_code == 200
    assert not Character.objects.filter(table=table).exists()
    draft = Draft.objects.filter(table=table).first()
    assert draft is None or "\x00" not in str(draft.data)


# --- One place answers a refusal ---------------------------------------------------------


def test_a_refusal_no_view_draws_is_a_422_with_its_message(rf):
    from blades.rules.errors import RuleError
    from sessions.refusals import RefusalMiddleware

    middleware = RefusalMiddleware(lambda request: None)
    request = rf.post("/anywhere/")
    response = middleware.process_exception(request, RuleError("Not by the rules."))
    assert response.status_code == 422 and response.content == b"Not by the rules."
    assert middleware.process_exception(request, ValueError("a bug")) is None


def test_a_refused_crew_form_comes_back_bound_with_the_message(client, table, gm, crew):
    client.force_login(gm)
    response = client.post(
        reverse("crew_create", args=[table.pk]), {"crew_type": "bravos", "name": "Zq-second"}
    )
    refused(response, "already has a crew", "Zq-second")


# --- NUL bytes, which PostgreSQL refuses to store or even compare ---------------------


def test_a_login_with_a_nul_byte_in_the_name_is_refused_not_a_500(client, db):
    response = client.post(reverse("login"), {"username": "gm\x00", "password": "x"})
    assert response.status_code < 500


@pytest.mark.parametrize("name", ["join", "screen_shared"])
def test_a_token_with_a_nul_byte_is_not_found(client, table, player, name):
    client.force_login(player)
    assert client.get(reverse(name, args=["ab\x00cd"])).status_code == 404
    assert client.post(reverse(name, args=["ab\x00cd"])).status_code in (404, 405)
