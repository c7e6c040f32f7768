import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from blades.asgi import application
from crews import actions
from crews.models import Faction
from sessions.models import Clock
from tests.factories import FactionFactory
from tests.helpers import drain, drain_greeting
from tests.sockets import Socket

HX = {"HX-Request": "true"}
FACTION = {"name": "Bluecoats", "tier": "2", "hold": "strong", "status": "0", "notes": ""}


def test_gm_adds_a_faction(client, table, gm):
    client.force_login(gm)
    client.post(reverse("faction_list", args=[table.pk]), FACTION)
    faction = Faction.objects.get()
    assert (faction.name, faction.tier, faction.status_label) == ("Bluecoats", 2, "Neutral")


def test_bad_faction_keeps_what_was_typed(client, table, gm):
    client.force_login(gm)
    response = client.post(
        reverse("faction_list", args=[table.pk]), {**FACTION, "tier": "9"}, headers=HX
    )
    assert response.status_code == 422
    assert 'value="Bluecoats"' in response.content.decode()
    assert not Faction.objects.exists()


def test_players_cannot_touch_factions(client, table, player):
    faction = FactionFactory(table=table)
    client.force_login(player)
    assert client.post(reverse("faction_list", args=[table.pk]), FACTION).status_code == 403
    for name in ("faction_update", "faction_status", "faction_delete", "faction_clock"):
        response = client.post(reverse(name, args=[table.pk, faction.pk]), {"status": "-1"})
        assert response.status_code == 403
    assert Faction.objects.get(pk=faction.pk).status == 0


def test_ladder_sorted_by_tier(client, table, gm):
    for name, tier in [("Dimmer Sisters", 1), ("Imperial Military", 4), ("Red Sashes", 2)]:
        FactionFactory(table=table, name=name, tier=tier)
    client.force_login(gm)
    page = client.get(reverse("faction_list", args=[table.pk])).content.decode()
    assert page.index("Imperial Military") < page.index("Red Sashes") < page.index("Dimmer")
    assert "Tier IV" in page


def test_the_gm_sets_status_on_the_track_and_it_shows_its_label(client, table, gm):
    faction = FactionFactory(table=table, status=0)
    client.force_login(gm)
    url = reverse("faction_status", args=[table.pk, faction.pk])
    client.post(url, {"status": "-3"})
    assert Faction.objects.get(pk=faction.pk).status == -3
    page = client.get(reverse("faction_list", args=[table.pk])).content.decode()
    assert "-3 War" in page
    # The track's seven steps, war to allies, the one it stands at pressed.
    assert page.count('name="status" value=') == 7
    assert 'aria-pressed="true" aria-label="-3 War"' in page


@pytest.mark.parametrize("status", ["4", "-4", "1.5", ""])
def test_a_status_off_the_track_is_refused_and_changes_nothing(client, table, gm, status):
    faction = FactionFactory(table=table, status=1)
    client.force_login(gm)
    url = reverse("faction_status", args=[table.pk, faction.pk])
    response = client.post(url, {"status": status}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert 'role="alert"' in response.content.decode()
    assert Faction.objects.get(pk=faction.pk).status == 1


def test_a_player_reads_the_track_without_buttons(client, table, player):
    FactionFactory(table=table, name="Bluecoats", status=-2)
    client.force_login(player)
    page = client.get(reverse("faction_list", args=[table.pk])).content.decode()
    assert 'role="img" aria-label="Status with Bluecoats: -2 Hostile"' in page
    assert 'name="status"' not in page


def test_hidden_faction_and_hidden_notes_never_in_a_player_page(client, table, gm, player):
    FactionFactory(table=table, name="Secret Cabal", hidden=True)
    FactionFactory(table=table, name="Open Gang", notes="Their boss hides here", notes_hidden=True)
    FactionFactory(table=table, name="Known Lords", notes="Everyone knows this")
    client.force_login(player)
    page = client.get(reverse("faction_list", args=[table.pk])).content.decode()
    assert "Open Gang" in page and "Everyone knows this" in page
    assert "Secret Cabal" not in page and "Their boss hides here" not in page
    client.force_login(gm)
    page = client.get(reverse("faction_list", args=[table.pk])).content.decode()
    assert "Secret Cabal" in page and "Their boss hides here" in page


def test_goal_clock_of_a_hidden_faction_is_hidden(client, table, gm, player):
    faction = FactionFactory(table=table, name="Secret Cabal", hidden=True)
    client.force_login(gm)
    client.post(
        reverse("faction_clock", args=[table.pk, faction.pk]),
        {f"goal-{faction.pk}-name": "Seize the docks", f"goal-{faction.pk}-segments": "8"},
    )
    clock = Clock.objects.get()
    assert (clock.kind, clock.hidden, clock.segments) == ("faction", True, 8)
    client.force_login(player)
    assert (
        "Seize the docks"
        not in client.get(reverse("table_detail", args=[table.pk])).content.decode()
    )
    actions.update_faction(
        faction=faction, name="Cabal", tier=2, hold="weak", status=0, notes="",
        hidden=False, notes_hidden=False,
    )  # fmt: skip
    assert not Clock.objects.get().hidden
    page = client.get(reverse("faction_list", args=[table.pk])).content.decode()
    assert "Seize the docks" in page


def test_deleting_a_faction_deletes_its_clocks(table):
    faction = FactionFactory(table=table)
    actions.add_goal_clock(faction=faction, name="Goal", segments=6)
    actions.delete_faction(faction=faction)
    assert not Clock.objects.exists()


async def connect(user):
    client = Client()
    await sync_to_async(client.force_login)(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    return cookie


async def open_socket(user, table_id):
    cookie = await connect(user)
    communicator = Socket(
        application,
        f"/ws/tables/{table_id}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie.encode())],
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_hidden_faction_never_reaches_a_players_socket():
    from tests.factories import MembershipFactory, TableFactory

    table = await sync_to_async(TableFactory)()
    player = (await sync_to_async(MembershipFactory)(table=table)).user
    await sync_to_async(actions.create_crew)(table=table, crew_type="shadows", name="Crew")
    gm_socket = await open_socket(table.gm, table.pk)
    player_socket = await open_socket(player, table.pk)
    for socket in (gm_socket, player_socket):
        await drain_greeting(socket)
        await drain(socket)  # the GM's list hears the player arrive

    faction = await sync_to_async(actions.create_faction)(
        table=table, name="Secret Cabal", tier=3, hold="strong", status=-3,
        notes="plots", hidden=True,
    )  # fmt: skip
    await sync_to_async(actions.add_goal_clock)(faction=faction, name="Cabal goal", segments=4)
    await sync_to_async(actions.shift_status)(faction=faction, delta=1)

    gm_frames = "".join(await drain(gm_socket))
    player_frames = await drain(player_socket)
    assert "Secret Cabal" in gm_frames and "Cabal goal" in gm_frames
    for frame in player_frames:
        assert "Secret Cabal" not in frame and "Cabal goal" not in frame and "plots" not in frame
    # The crew is not at war with a faction it does not know of.
    assert not any("At war" in frame for frame in player_frames)
    # Not even an unchanged ladder: its arrival alone would tell of the GM's move.
    assert not any('id="faction-ladder"' in frame for frame in player_frames)
    assert await player_socket.receive_nothing()
    await gm_socket.disconnect()
    await player_socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_crew_changes_reach_every_page_live():
    from tests.factories import MembershipFactory, TableFactory

    table = await sync_to_async(TableFactory)()
    player = (await sync_to_async(MembershipFactory)(table=table)).user
    crew = await sync_to_async(actions.create_crew)(table=table, crew_type="cult", name="Crew")
    player_socket = await open_socket(player, table.pk)
    await drain_greeting(player_socket)
    await sync_to_async(actions.add_heat)(crew=crew, amount=3)
    frames = "".join(await drain(player_socket))
    assert f'id="crew-{crew.pk}-books"' in frames and 'aria-label="Heat 3 of 9"' in frames
    assert f'id="crew-{crew.pk}-summary"' in frames
    assert "/crew/heat/" not in frames  # players do not keep the books by default
    await player_socket.disconnect()
