"""Two daphne processes on one PostgreSQL and one Redis (run under tests.services).

A change posted through process A reaches a socket held by process B; after B is
killed and started again, a socket reconnecting to it catches up on what changed
while it was away. Sockets here are real `websockets` clients with a session cookie.
"""

import asyncio
import os

import pytest
from django.db import connection
from django.test import Client
from websockets.asyncio.client import connect

from tests.factories import ClockFactory, MembershipFactory, TableFactory
from tests.live_server import Daphne

pytestmark = [
    pytest.mark.scale,
    pytest.mark.skipif(
        not (
            os.environ.get("DATABASE_URL", "").startswith("postgres")
            and os.environ.get("REDIS_URL")
        ),
        reason="run under `python -m tests.services` (make test-scale)",
    ),
]


def database_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


@pytest.fixture
def pair(transactional_db):
    servers = [Daphne(database_url()), Daphne(database_url())]
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.stop()
    # A killed process's database sessions linger a moment; end them so the test
    # database can be dropped.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def frames_until(socket, text: str, seconds: float = 10) -> str:
    async with asyncio.timeout(seconds):
        while True:
            frame = await socket.recv()
            if text in frame:
                return frame


def test_a_roll_and_a_tick_through_a_reach_a_socket_on_b(pair):
    a, b = pair
    table = TableFactory()
    player = MembershipFactory(table=table).user
    clock = ClockFactory(table=table, name="Bluecoats", segments=4)
    gm = Client()
    gm.force_login(table.gm)

    session = cookie(player)  # here, not in a worker thread with its own connection

    async def run():
        socket = await connect(
            f"ws://127.0.0.1:{b.port}/ws/tables/{table.pk}/",
            origin=b.url,
            additional_headers=[("Cookie", session)],
        )
        await frames_until(socket, "roll-log")  # the snapshot
        await asyncio.to_thread(
            a.post,
            gm,
            f"/tables/{table.pk}/rolls/",
            {"kind": "fortune", "pool": 2, "note": "Via A"},
        )
        await frames_until(socket, "Via A")
        await asyncio.to_thread(
            a.post, gm, f"/tables/{table.pk}/clocks/{clock.pk}/tick/", {"by": 1}
        )
        await frames_until(socket, "1 of 4 segments filled")
        await socket.close()

    asyncio.run(run())


def test_after_b_restarts_a_socket_catches_up_on_what_changed(pair):
    a, b = pair
    table = TableFactory()
    player = MembershipFactory(table=table).user
    clock = ClockFactory(table=table, name="Bluecoats", segments=4)
    gm = Client()
    gm.force_login(table.gm)
    b.stop()
    a.post(gm, f"/tables/{table.pk}/clocks/{clock.pk}/tick/", {"by": 1})
    a.post(gm, f"/tables/{table.pk}/rolls/", {"kind": "fortune", "pool": 1, "note": "While away"})
    b.start()

    session = cookie(player)  # here, not in a worker thread with its own connection

    async def run():
        socket = await connect(
            f"ws://127.0.0.1:{b.port}/ws/tables/{table.pk}/",
            origin=b.url,
            additional_headers=[("Cookie", session)],
        )
        snapshot = await frames_until(socket, "roll-log")
        assert "While away" in snapshot and "1 of 4 segments filled" in snapshot
        await socket.close()

    asyncio.run(run())
