import asyncio
import random
import threading
from collections import Counter
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from blades.rules.rolls import RollKind
from sessions import actions, live, presence, seating, shared
from sessions.models import Presence
from tests.factories import ClockFactory, MembershipFactory, UserFactory
from tests.helpers import (
    connect,
    drain,
    drain_greeting,
    frames_until,
    make_table,
    next_frame_with,
)
from tests.sockets import WAIT

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_member_receives_pushed_roll():
    table, gm, player = await make_table()
    communicator, connected = await connect(player, table.pk)
    assert connected
    await drain_greeting(communicator)
    await database_sync_to_async(actions.quick_roll)(
        table=table,
        roller=gm,
        kind=RollKind.ACTION,
        pool=2,
        note="Over the rooftops",
        rng=random.Random(7),
    )
    frame = await communicator.receive_from()
    assert 'hx-swap-oob="afterbegin:#roll-log"' in frame
    assert "Over the rooftops" in frame
    await communicator.disconnect()


async def test_member_receives_clock_changes():
    table, gm, player = await make_table()
    clock = await database_sync_to_async(ClockFactory)(table=table, name="Alarm", segments=4)
    communicator, _ = await connect(player, table.pk)
    await drain_greeting(communicator)
    await database_sync_to_async(actions.tick_clock)(clock=clock, by=1)
    frame = await communicator.receive_from()
    assert f'id="clock-{clock.pk}"' in frame and "1 of 4 segments filled" in frame
    await communicator.disconnect()


async def test_player_socket_gets_nothing_of_a_gm_only_clock():
    table, gm, player = await make_table()
    player_socket, _ = await connect(player, table.pk)
    gm_socket, _ = await connect(gm, table.pk)
    await drain_greeting(player_socket)
    await drain_greeting(gm_socket)
    clock = await database_sync_to_async(actions.create_clock)(
        table=table, name="Lampblack plot", segments=6, kind="faction", visibility="gm"
    )
    await database_sync_to_async(actions.tick_clock)(clock=clock, by=2)
    await frames_until(gm_socket, "Lampblack plot", "2 of 6 segments filled")
    # Presence lists may still come as the two arrivals settle; nothing else.
    for frame in await drain(player_socket):
        assert 'id="presence"' in frame and "Lampblack" not in frame
    await player_socket.disconnect()
    await gm_socket.disconnect()


async def test_player_socket_gets_nothing_of_a_secret_roll():
    table, gm, player = await make_table()
    communicator, _ = await connect(player, table.pk)
    await drain_greeting(communicator)
    await database_sync_to_async(actions.quick_roll)(
        table=table, roller=gm, kind=RollKind.FORTUNE, pool=3, secret=True, rng=random.Random(2)
    )
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


async def test_hiding_a_visible_clock_removes_it_from_players():
    table, gm, player = await make_table()
    clock = await database_sync_to_async(ClockFactory)(table=table, name="Was open")
    communicator, _ = await connect(player, table.pk)
    await drain_greeting(communicator)
    await database_sync_to_async(actions.update_clock)(
        clock=clock, name="Now secret", segments=4, kind="danger", visibility="gm"
    )
    frame = await communicator.receive_from()
    assert frame == f'<div id="clock-{clock.pk}" hx-swap-oob="delete"></div>'
    await communicator.disconnect()


async def test_revealing_a_hidden_clock_adds_it_for_players():
    table, gm, player = await make_table()
    clock = await database_sync_to_async(ClockFactory)(table=table, visibility="gm")
    communicator, _ = await connect(player, table.pk)
    await drain_greeting(communicator)
    await database_sync_to_async(actions.update_clock)(
        clock=clock, name="Revealed", segments=4, kind="danger", visibility="everyone"
    )
    frame = await communicator.receive_from()
    assert frame.startswith('<div hx-swap-oob="beforeend:#clock-list">') and "Revealed" in frame
    await communicator.disconnect()


async def test_snapshot_on_connect_holds_clocks_and_rolls_but_nothing_hidden():
    table, gm, player = await make_table()
    await database_sync_to_async(ClockFactory)(table=table, name="Visible threat")
    await database_sync_to_async(ClockFactory)(table=table, name="Hidden scheme", visibility="gm")
    await database_sync_to_async(actions.quick_roll)(
        table=table,
        roller=gm,
        kind=RollKind.ACTION,
        pool=1,
        note="earlier roll",
        rng=random.Random(3),
    )
    communicator, _ = await connect(player, table.pk)
    snapshot = await communicator.receive_from()
    assert 'id="clock-list"' in snapshot and 'id="roll-log"' in snapshot
    assert "Visible threat" in snapshot and "earlier roll" in snapshot
    assert "Hidden scheme" not in snapshot
    await communicator.disconnect()


async def test_a_storms_sockets_share_their_audiences_snapshot_and_owners_get_their_clocks(
    monkeypatch,
):
    """One drawing per table and audience, however many sockets: a player's own snapshot
    differs only in the clocks they own, drawn for them alone (sessions.live.Snapshot)."""
    table, gm, player = await make_table()

    def scene():
        other, third = (MembershipFactory(table=table).user for _ in range(2))
        ClockFactory(table=table, name="Zq-shown")
        ClockFactory(table=table, name="Zq-gm-only", visibility="gm")
        ClockFactory(table=table, name="Zq-mine", visibility="owner", owner=player)
        ClockFactory(table=table, name="Zq-theirs", visibility="owner", owner=other)
        return other, third

    other, third = await database_sync_to_async(scene)()
    users = (gm, player, other, third)
    draws = Counter()

    def counted(name: str):
        draw = getattr(live, name)

        def counting(*args):
            draws[name] += 1
            return draw(*args)

        return counting

    monkeypatch.setattr(live, "snapshot", counted("snapshot"))
    monkeypatch.setattr(live, "own_clocks", counted("own_clocks"))
    # As in a storm whose database thread is busy: every socket asks for its snapshot
    # before the first drawing begins.
    share, asked, all_asked = shared.drawing, [], asyncio.Event()

    async def together(key, draw, then=None):
        if key[0] == "snapshot":
            asked.append(key)
            if len(asked) == len(users):
                all_asked.set()
            await all_asked.wait()
        return await share(key, draw, then)

    monkeypatch.setattr(shared, "drawing", together)
    opened = [await connect(user, table.pk) for user in users]
    assert all(connected for _, connected in opened)
    snapshots = [await communicator.receive_from() for communicator, _ in opened]
    for communicator, _ in opened:
        await communicator.disconnect()
    assert draws == {"snapshot": 2, "own_clocks": 2}
    seen = [{name for name in NAMES if name in snapshot} for snapshot in snapshots]
    assert seen == [
        set(NAMES),
        {"Zq-shown", "Zq-mine"},
        {"Zq-shown", "Zq-theirs"},
        {"Zq-shown"},
    ]


NAMES = ("Zq-shown", "Zq-gm-only", "Zq-mine", "Zq-theirs")


async def test_presence_lists_who_is_connected():
    table, gm, player = await make_table()
    communicator, _ = await connect(player, table.pk)
    await communicator.receive_from()
    presence = await communicator.receive_from()
    assert 'id="presence"' in presence and player.username in presence
    await communicator.disconnect()


async def test_pings_are_written_together_after_a_pause(monkeypatch):
    # A write per ping queues 40 writes a second ahead of the rolls with 1,000 pages open.
    monkeypatch.setattr(presence, "GATHER_SECONDS", 1.0)
    writes = []
    mark_seen_now = presence.mark_seen
    loop = asyncio.get_running_loop()
    written = asyncio.Event()

    def mark_seen(channel_names):
        writes.append(set(channel_names))
        mark_seen_now(channel_names)
        loop.call_soon_threadsafe(written.set)

    monkeypatch.setattr(presence, "mark_seen", mark_seen)
    table, gm, player = await make_table()
    sockets = [(await connect(user, table.pk))[0] for user in (gm, player)]
    for communicator in sockets:
        await drain_greeting(communicator)
    long_ago = timezone.now() - timedelta(minutes=5)
    seen = database_sync_to_async(lambda: set(Presence.objects.values_list("seen", flat=True)))
    await database_sync_to_async(Presence.objects.update)(seen=long_ago)
    for communicator in sockets:
        await communicator.send_to(text_data='{"ping": "1"}')
    async with asyncio.timeout(10):
        await written.wait()
    # Both pings in the one write: the first was not written the moment it came.
    assert len(writes) == 1 and len(writes[0]) == 2
    assert all(when > long_ago for when in await seen())
    for communicator in sockets:
        await communicator.disconnect()


async def test_non_member_is_refused():
    table, gm, player = await make_table()
    stranger = await database_sync_to_async(UserFactory)()
    communicator, connected = await connect(stranger, table.pk)
    assert not connected


async def test_anonymous_is_refused():
    table, gm, player = await make_table()
    communicator, connected = await connect(None, table.pk)
    assert not connected


async def test_foreign_origin_is_refused():
    table, gm, player = await make_table()
    communicator, connected = await connect(
        player, table.pk, origin=(b"origin", b"http://evil.example")
    )
    assert not connected


async def test_a_player_removed_as_their_socket_opens_is_closed(monkeypatch):
    """The removal commits just after the socket has read its membership, before it has
    written its presence row: it is closed all the same, and has no row left."""
    table, gm, player = await make_table()
    read = seating.memberships

    def read_then_removed(places):
        found = read(places)
        actions.remove_player(table=table, user_id=player.pk)
        return found

    monkeypatch.setattr(seating, "memberships", read_then_removed)
    communicator, _ = await connect(player, table.pk)
    while (await communicator.receive_output(timeout=WAIT))["type"] != "websocket.close":
        pass
    await communicator.disconnect()  # as the browser answers the close: its row goes
    rows = database_sync_to_async(Presence.objects.filter(user=player).count)
    assert await rows() == 0


async def test_removed_player_socket_is_closed():
    table, gm, player = await make_table()
    communicator, _ = await connect(player, table.pk)
    await drain_greeting(communicator)
    await database_sync_to_async(actions.remove_player)(table=table, user_id=player.pk)
    output = await communicator.receive_output(timeout=1)
    assert output["type"] == "websocket.close"


async def test_a_push_reaches_the_socket_while_the_sync_thread_is_busy():
    # Frames go out from the event loop alone. The process's one sync thread may be deep
    # in a request (or stuck behind a database lock); every socket's frames waiting on it
    # would put a request's whole cost in front of each push.
    table, gm, player = await make_table()
    communicator, _ = await connect(player, table.pk)
    await drain_greeting(communicator)
    release = threading.Event()
    busy = asyncio.ensure_future(sync_to_async(release.wait)())
    try:
        await get_channel_layer().group_send(
            live.players_group(table.pk, "en"), {"type": "table.fragment", "html": "<p>Now</p>"}
        )
        assert await communicator.receive_from(timeout=2) == "<p>Now</p>"
    finally:
        release.set()
        await busy
    await communicator.disconnect()


async def test_a_player_joining_updates_the_players_list_live():
    """The GM's list gains the newcomer with a Remove button; a player's list, without."""
    table, gm, player = await make_table()
    gm_socket, _ = await connect(gm, table.pk)
    player_socket, _ = await connect(player, table.pk)
    for socket in (gm_socket, player_socket):
        await drain_greeting(socket)
    newcomer = await database_sync_to_async(UserFactory)(username="newcomer")
    await database_sync_to_async(actions.join_table)(user=newcomer, token=table.invite_token)
    gm_frame = await next_frame_with(gm_socket, 'id="members"')
    player_frame = await next_frame_with(player_socket, 'id="members"')
    for frame in (gm_frame, player_frame):
        assert 'id="members"' in frame and 'hx-swap-oob="morph"' in frame and "newcomer" in frame
    assert 'aria-label="Remove newcomer"' in gm_frame
    assert "Remove" not in player_frame
    # Joining again changes nothing and sends nothing.
    await database_sync_to_async(actions.join_table)(user=newcomer, token=table.invite_token)
    assert await gm_socket.receive_nothing()

    for socket in (gm_socket, player_socket):
        await socket.disconnect()
