"""A "known, progress hidden" clock tells players its name and size, never its fill: each
defect found by comparing a player's bytes at two fills of such a clock, one test each.
The sweep (test_sweep) compares every page and frame across two fills; these pin down
the three places that told it."""

import pytest
from django.urls import reverse

from chronicle import actions as journal
from rolls import actions as flow
from rolls import outcome as flow_outcome
from rolls import undo as flow_undo
from sessions import actions
from sessions.models import Clock
from tests.factories import CharacterFactory, ClockFactory
from tests.helpers import Dice, frames, listen, member, seen_by, start, to_downtime

pytestmark = pytest.mark.django_db

VEILED = "Veiled work"


def set_fill(clock: Clock, filled: int) -> None:
    Clock.objects.filter(pk=clock.pk).update(filled=filled)


def test_the_project_menu_tells_players_no_fill(table, crew, gm, player):
    to_downtime(table, gm)
    CharacterFactory(table=table, owner=player, name="Cross", prowl=1)
    clock = ClockFactory(table=table, name=VEILED, segments=8, kind="project", visibility="known")
    pages = [reverse("phase_detail", args=[table.pk]), reverse("phase_panel", args=[table.pk])]
    set_fill(clock, 3)
    at_three = seen_by(player, *pages)
    assert f">{VEILED}".encode() in at_three  # the menu offers it, by name
    set_fill(clock, 5)
    assert seen_by(player, *pages) == at_three
    assert f"{VEILED} (5/8)".encode() in seen_by(gm, *pages)


@pytest.fixture
def undone(table, gm, player):
    """A finished roll whose complication ticked a progress-hidden clock by 3, then
    emptied by hand to `filled` before the GM undoes the roll."""
    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=1)
    clock = ClockFactory(table=table, name=VEILED, segments=8, visibility="known")
    journal.start_session(table=table, title="Tonight")

    def play(filled: int) -> None:
        gm_m, ada_m = member(table, gm), member(table, player)
        roll = start(ada_m, ada)
        flow.roll_dice(by=ada_m, roll=roll, rng=Dice(5, 2))
        flow_outcome.add_consequence(
            by=gm_m, roll=roll, kind="complication", clock=clock, ticks=3, description="noise"
        )
        flow_outcome.finish(by=gm_m, roll=roll)
        set_fill(clock, filled)
        flow_undo.undo_last(by=gm_m, table=table)

    return play


def test_undoing_a_roll_tells_players_nothing_of_where_the_clock_stops(table, gm, player, undone):
    undone(1)  # three ticks taken back from one: it stops at 0
    pages = [
        reverse("flow_panel", args=[table.pk]),
        reverse("journal", args=[table.pk]),
        reverse("journal_campaign", args=[table.pk]),
    ]
    seen = seen_by(player, *pages)
    assert b"its changes are taken back" in seen
    assert b"stops at" not in seen
    assert f"{VEILED} stops at 0".encode() in seen_by(gm, *pages)


@pytest.mark.django_db(transaction=True)
def test_a_gm_tick_of_a_veiled_clock_sends_players_nothing(table, gm, player):
    """Not even to the player who made it: nothing they are shown of it changed, and a
    frame per tick would let them count the ticks on the socket."""
    clock = ClockFactory(table=table, name=VEILED, segments=8, visibility="known", owner=player)
    gm_channel = listen(table.pk, is_gm=True)
    players_channel = listen(table.pk, is_gm=False, user_id=player.pk)
    actions.tick_clock(clock=clock, by=1)
    assert frames(players_channel) == []
    (sent,) = frames(gm_channel)
    assert 'aria-label="1 of 8 segments filled"' in sent


def test_a_faction_note_the_gm_keeps_never_reaches_a_players_template(client, table, gm, player):
    """Not in the page (the template used to decide), not in what the template is given."""
    from crews import actions as crew_actions

    crew_actions.create_faction(
        table=table, name="Open Gang", tier=1, hold="weak", status=0, notes="Zq-kept-note",
        notes_hidden=True,
    )  # fmt: skip
    client.force_login(player)
    response = client.get(reverse("faction_list", args=[table.pk]))
    (faction,) = response.context["factions"]
    assert faction.name == "Open Gang" and faction.notes == "" and faction.model is None
    assert b"Zq-kept-note" not in response.content
    client.force_login(gm)
    (faction,) = client.get(reverse("faction_list", args=[table.pk])).context["factions"]
    assert faction.notes == "Zq-kept-note"


@pytest.mark.django_db(transaction=True)
def test_filling_a_veiled_clock_sends_players_nothing_of_its_rival(table, gm, player):
    """Its rival's face says "(full)" of it only to those who see its ticks."""
    veiled = ClockFactory(table=table, name=VEILED, segments=4, filled=3, visibility="known")
    rival = ClockFactory(table=table, name="Open race", kind="racing", rival=veiled)
    Clock.objects.filter(pk=veiled.pk).update(rival=rival, kind="racing")
    gm_channel = listen(table.pk, is_gm=True)
    players_channel = listen(table.pk, is_gm=False)
    actions.tick_clock(clock=Clock.objects.get(pk=veiled.pk), by=1)
    assert frames(players_channel) == []
    sent = "".join(frames(gm_channel))
    assert f'id="clock-{rival.pk}"' in sent and "(full)" in sent


def test_a_roll_tells_players_no_move_of_a_veiled_clock(table, gm, player):
    """A complication on a full clock moves it no further, on another it does: a line
    "it moved" for players would tell which."""
    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=1)
    clock = ClockFactory(table=table, name=VEILED, segments=8, filled=3, visibility="known")
    gm_m, ada_m = member(table, gm), member(table, player)
    roll = start(ada_m, ada)
    flow.roll_dice(by=ada_m, roll=roll, rng=Dice(5, 2))
    flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="complication", clock=clock, ticks=1, description="noise"
    )
    panel = reverse("flow_panel", args=[table.pk])
    seen = seen_by(player, panel)
    assert f"Complication: {VEILED} +1".encode() in seen
    assert b"Segments filled" not in seen
    assert f"{VEILED}: Segments filled 3 → 4".encode() in seen_by(gm, panel)
