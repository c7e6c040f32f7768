"""Two daphne processes on one PostgreSQL and one Redis (run under tests.services).

A GM's browser on process A rolls and ticks a clock; a player's browser on process B
shows both live. A raw-socket measure prints how long a push posted to A takes to reach
a socket on A and one on B. With channels-redis every push goes through Redis, even to
a socket in the posting process, so "B after A" is what a second process adds.
"""

import asyncio
import re
import statistics
import time

from django.test import Client
from playwright.sync_api import expect

from tests.browsers import wait_for_socket
from tests.factories import MembershipFactory, TableFactory
from tests.helpers import session_cookie
from tests.scale.support import (
    SCALE,
    open_table,
    roll,
    roll_log,
    run_in_thread,
    table_of_three,
    table_socket,
    tick,
)

pytestmark = SCALE


def test_a_roll_and_a_tick_through_a_reach_a_browser_on_b(servers, person, make_user):
    a, b = servers
    table = table_of_three(make_user)
    gm = open_table(person("gm"), a.url, table)
    ada = open_table(person("ada", base_url=b.url), b.url, table)
    for page in (gm, ada):
        wait_for_socket(page)

    roll(gm, "Through process A")
    expect(roll_log(ada).filter(has_text="Through process A")).to_be_visible()
    tick(gm, "Bluecoats close in")
    expect(ada.get_by_role("img", name="1 of 4 segments filled")).to_be_visible()
    # What the GM hides stays hidden across processes too.
    expect(ada.get_by_role("article", name="Inspectors")).to_have_count(0)


HOPS = 30


async def arrivals(socket, marker: str, times: dict) -> None:
    """Note when each push carrying `marker<n>` arrives, until all HOPS have."""
    while len(times) < HOPS:
        frame = await socket.recv()
        # A push names its roll more than once now (the log line, the spoken result).
        for n in {int(found) for found in re.findall(re.escape(marker) + r"(\d+)", frame)}:
            times.setdefault(n, time.perf_counter())


def test_the_hop_through_redis_to_b(servers, capsys):
    """Every roll posted to A reaches a socket on A and one on B; print the latencies."""
    a, b = servers
    table = TableFactory()
    player = MembershipFactory(table=table).user
    gm = Client()
    gm.force_login(table.gm)
    cookies = [session_cookie(player) for _ in servers]

    async def measure():
        sockets = [
            await table_socket(server, table.pk, cookie)
            for server, cookie in zip(servers, cookies, strict=True)
        ]
        times = ({}, {})
        listeners = [
            asyncio.create_task(arrivals(socket, "hop ", seen))
            for socket, seen in zip(sockets, times, strict=True)
        ]
        sent = {}
        for n in range(HOPS):
            sent[n] = time.perf_counter()
            form = {"kind": "fortune", "pool": 1, "note": f"hop {n}"}
            await asyncio.to_thread(a.post, gm, f"/tables/{table.pk}/rolls/", form)
        async with asyncio.timeout(20):
            await asyncio.gather(*listeners)
        for socket in sockets:
            await socket.close()
        return sent, times

    sent, (at_a, at_b) = run_in_thread(measure())
    assert sorted(at_a) == sorted(at_b) == list(range(HOPS))
    with capsys.disabled():
        print(
            f"\nscale: {HOPS} rolls posted to A, request to arrival p50: "
            f"socket on A {p50(sent, at_a):.1f} ms, socket on B {p50(sent, at_b):.1f} ms; "
            f"B after A p50 {p50(at_a, at_b):.1f} ms"
        )


def p50(start: dict, end: dict) -> float:
    return statistics.median(1000 * (end[n] - start[n]) for n in start)
