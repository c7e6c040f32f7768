"""A hidden clock or faction used in a step everyone watches is named to players only
through the audience rule (sessions.audience): as "a hidden clock" or "a target the GM
keeps hidden", in the page, the fragments, the pushes, the logs and the shared screen.
Logs keep references, so revealing the thing later names it and hiding it again hides it.
"""

import pytest
from django.test import Client
from django.urls import reverse

from crews import actions as crew_actions
from play import phases
from rolls import actions as flow
from rolls import outcome as flow_outcome
from rolls import undo as flow_undo
from sessions import actions
from sessions.models import Clock, Membership
from tests.factories import CharacterFactory, ClockFactory
from tests.helpers import Dice, seen_by, start

pytestmark = pytest.mark.django_db

HIDDEN = "Zq-hidden-doom"
CABAL = "Zq-hidden-cabal"


def set_visibility(clock: Clock, visibility: str) -> None:
    actions.update_clock(
        clock=clock, name=clock.name, segments=clock.segments, kind=clock.kind,
        visibility=visibility,
    )  # fmt: skip


@pytest.fixture
def ada(table, player):
    return CharacterFactory(table=table, owner=player, name="Ada", prowl=1)


@pytest.fixture
def ada_m(table, player, ada):
    return Membership.objects.get(table=table, user=player)


@pytest.fixture
def gm_m(table, gm):
    return Membership.objects.get(table=table, user=gm)


@pytest.fixture
def ticked(table, gm_m, ada_m, ada):
    """A finished action roll whose target clock and complication are a GM-only clock."""
    clock = ClockFactory(table=table, name=HIDDEN, segments=8, visibility="gm")
    roll = start(ada_m, ada)
    flow.roll_dice(by=ada_m, roll=roll, rng=Dice(5, 2))  # risky 5: a partial success
    flow_outcome.tick_target(by=gm_m, roll=roll, clock=clock)
    flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="complication", clock=clock, ticks=1, description="noise"
    )
    return clock, roll


def test_a_hidden_clock_in_a_public_roll_is_named_only_to_the_gm(table, gm, gm_m, player, ticked):
    clock, roll = ticked
    pages = (reverse("table_detail", args=[table.pk]), reverse("flow_panel", args=[table.pk]))
    open_roll = seen_by(player, *pages)
    assert HIDDEN.encode() not in open_roll
    assert b"GM ticks a hidden clock by 2" in open_roll
    assert b"(a hidden clock +1)" in open_roll
    # Nor whether it moved: players see no clock's count they could not see on its face.
    assert b"Segments filled" not in open_roll
    flow_outcome.finish(by=gm_m, roll=roll)
    assert HIDDEN.encode() not in seen_by(player, *pages)
    gm_view = seen_by(gm, *pages)
    assert f"GM ticks {HIDDEN} by 2".encode() in gm_view and b"a hidden clock" not in gm_view


def test_revealing_the_clock_names_it_in_the_old_log_and_hiding_it_hides_it(table, player, ticked):
    clock, _ = ticked
    panel = reverse("flow_panel", args=[table.pk])
    set_visibility(clock, "everyone")
    assert f"GM ticks {HIDDEN} by 2".encode() in seen_by(player, panel)
    set_visibility(clock, "gm")
    assert HIDDEN.encode() not in seen_by(player, panel)
    # Deleted, it is named to nobody.
    actions.delete_clock(clock=Clock.objects.get(pk=clock.pk))
    assert b"GM ticks a clock since deleted by 2" in seen_by(table.gm, panel)


def test_undo_names_a_hidden_clock_only_to_the_gm(table, gm, player, gm_m, ticked):
    clock, roll = ticked
    flow_outcome.finish(by=gm_m, roll=roll)
    Clock.objects.filter(pk=clock.pk).update(filled=0)  # emptied by hand meanwhile
    flow_undo.undo_last(by=gm_m, table=table)
    panel = reverse("flow_panel", args=[table.pk])
    # Where it stops would tell players how far it had run: that part is the GM's alone.
    assert HIDDEN.encode() not in seen_by(player, panel)
    assert b"its changes are taken back</li>" in seen_by(player, panel)
    assert f"its changes are taken back; {HIDDEN} stops at 0".encode() in seen_by(gm, panel)


def test_the_gm_menu_marks_the_clocks_players_will_not_see(table, gm, ada_m, ada):
    ClockFactory(table=table, name=HIDDEN, visibility="gm")
    ClockFactory(table=table, name="Open alarm")
    flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(6, 2))
    menu = seen_by(gm, reverse("flow_panel", args=[table.pk])).decode()
    assert f">{HIDDEN} (hidden from players)</option>" in menu
    assert ">Open alarm</option>" in menu


def test_old_step_logs_that_named_the_clock_still_read_and_hide_it(table, player, ticked):
    clock, roll = ticked
    # As written before references: the name itself in the text and in the change.
    (event,) = (e for e in roll.events.all() if str(e.text).startswith("GM ticks"))
    event.text = f"GM ticks {HIDDEN} by 2 (Standard)"
    event.changes = [{**event.changes[0], "who": HIDDEN}]
    event.save()
    panel = seen_by(player, reverse("flow_panel", args=[table.pk]))
    assert HIDDEN.encode() not in panel and b"GM ticks a hidden clock by 2 (Standard)" in panel
    set_visibility(clock, "everyone")
    assert f"GM ticks {HIDDEN} by 2".encode() in seen_by(
        player, reverse("flow_panel", args=[table.pk])
    )


@pytest.fixture
def crew(table):
    return crew_actions.create_crew(table=table, crew_type="shadows", name="Crew")


def hidden_score(table, crew):
    cabal = crew_actions.create_faction(
        table=table, name=CABAL, tier=3, hold="strong", status=0, hidden=True
    )
    phases.start_score(table=table, plan="stealth", detail="The roof", target_faction=cabal)
    phases.roll_engagement(table=table, roller=table.gm, marks={}, rng=Dice(4))
    return cabal


def test_a_hidden_faction_as_the_scores_target_is_named_only_to_the_gm(table, gm, player, crew):
    cabal = hidden_score(table, crew)
    screen = crew_actions.new_screen_link(table=table)
    pages = [
        reverse("table_detail", args=[table.pk]),
        reverse("phase_detail", args=[table.pk]),
        reverse("phase_panel", args=[table.pk]),
    ]
    seen = seen_by(player, *pages) + Client().get(f"/screen/{screen.token}/").content
    assert CABAL.encode() not in seen
    assert b"Stealth on a target the GM keeps hidden" in seen
    gm_view = seen_by(gm, *pages)
    assert f"Stealth on {CABAL}".encode() in gm_view
    assert f"{CABAL} (hidden from players)".encode() not in gm_view  # no menu at this step
    # The engagement roll's line in the log names the faction once it is revealed.
    crew_actions.update_faction(
        faction=cabal, name=CABAL, tier=3, hold="strong", status=0, notes="",
        hidden=False, notes_hidden=False,
    )  # fmt: skip
    assert f"Stealth on {CABAL}".encode() in seen_by(player, pages[0])


def test_the_gm_sees_which_factions_are_hidden_when_choosing_a_target(table, gm, crew):
    crew_actions.create_faction(
        table=table, name=CABAL, tier=3, hold="strong", status=0, hidden=True
    )
    page = " ".join(seen_by(gm, reverse("phase_detail", args=[table.pk])).decode().split())
    assert f"{CABAL} (hidden from players) (tier 3)</option>" in page


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_pushes_of_a_score_on_a_hidden_faction_name_it_only_to_the_gm():
    from asgiref.sync import sync_to_async

    from tests.factories import MembershipFactory, TableFactory
    from tests.helpers import drain, drain_greeting, open_socket

    def setup():
        table = TableFactory()
        player = MembershipFactory(table=table).user
        crew = crew_actions.create_crew(table=table, crew_type="shadows", name="Crew")
        clients = []
        for user in (table.gm, player):
            client = Client()
            client.force_login(user)
            clients.append(client)
        return table, crew, clients

    table, crew, (gm_client, player_client) = await sync_to_async(setup)()
    origin = (b"origin", b"http://127.0.0.1")
    gm_socket, _ = await open_socket(table, gm_client, origin)
    player_socket, _ = await open_socket(table, player_client, origin)
    for socket in (gm_socket, player_socket):
        await drain_greeting(socket)
        await drain(socket)  # the GM's list hears the player arrive
    await sync_to_async(hidden_score)(table, crew)
    gm_frames = "".join(await drain(gm_socket))
    player_frames = "".join(await drain(player_socket))
    assert f"Stealth on {CABAL}" in gm_frames  # the phase line and the roll log
    assert CABAL not in player_frames
    assert "Stealth on a target the GM keeps hidden" in player_frames
    assert 'hx-swap-oob="afterbegin:#roll-log"' in player_frames
    await gm_socket.disconnect()
    await player_socket.disconnect()


def test_the_players_discord_post_of_the_engagement_roll_keeps_the_target_hidden(table, crew):
    from chronicle import posts
    from chronicle.models import DiscordHook
    from sessions.models import Roll

    DiscordHook.objects.create(
        table=table, players_url="https://discord.com/api/webhooks/1/players"
    )
    hidden_score(table, crew)
    roll = Roll.objects.get(kind="engagement")
    (post,) = posts.roll_posts(table.pk, roll.pk, posts.webhooks(table.pk))
    assert post.which == "players' webhook"
    text = str(post.payload)
    assert CABAL not in text and "Stealth on a target the GM keeps hidden" in text
