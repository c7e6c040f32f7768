"""Pushes posted from a request's thread: they do not hold the thread, and go out in order."""

import asyncio
import logging
import threading

import pytest
from asgiref.sync import sync_to_async

from blades.server import outbox


def recorder(done: list, n: int, gate: asyncio.Event | None = None):
    async def send() -> None:
        if gate is not None:
            await gate.wait()
        done.append(n)

    return send


async def settled(done: list, count: int) -> None:
    for _ in range(200):
        if len(done) >= count:
            return
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_a_thread_posts_without_waiting_and_the_sends_keep_their_order():
    outbox.serve_from(asyncio.get_running_loop())
    done: list[int] = []
    gate = asyncio.Event()  # holds the first send, so the others must queue behind it

    def request_thread() -> list[int]:
        outbox.post(recorder(done, 0, gate), failure="lost")
        for n in range(1, 5):
            outbox.post(recorder(done, n), failure="lost")
        return list(done)

    assert await sync_to_async(request_thread)() == []
    await asyncio.sleep(0.05)
    assert done == []
    gate.set()
    await settled(done, 5)
    assert done == [0, 1, 2, 3, 4]


@pytest.mark.asyncio
async def test_a_thread_that_outruns_the_loop_waits_for_room(monkeypatch):
    monkeypatch.setattr(outbox, "BACKLOG", 2)
    outbox.serve_from(asyncio.get_running_loop())
    done: list[int] = []
    gate = asyncio.Event()
    posted = threading.Event()

    def request_thread() -> None:
        for n in range(3):
            outbox.post(recorder(done, n, gate), failure="lost")
        posted.set()

    thread = asyncio.ensure_future(sync_to_async(request_thread)())
    await asyncio.sleep(0.2)
    assert not posted.is_set()  # two sends pending: the third post waits for room
    gate.set()
    await thread
    await settled(done, 3)
    assert done == [0, 1, 2]


@pytest.mark.asyncio
async def test_a_failed_send_is_logged_and_the_next_still_goes(caplog):
    outbox.serve_from(asyncio.get_running_loop())
    done: list[int] = []

    async def fails() -> None:
        raise ConnectionError("layer down")

    def request_thread() -> None:
        outbox.post(fails, failure="channel layer unreachable")
        outbox.post(recorder(done, 1), failure="lost")

    with caplog.at_level(logging.ERROR, logger="blades.server.outbox"):
        await sync_to_async(request_thread)()
        await settled(done, 1)
    assert done == [1]
    assert "channel layer unreachable" in caplog.text and "layer down" in caplog.text


def test_without_a_server_loop_the_send_runs_before_post_returns(caplog):
    done: list[int] = []
    outbox.post(recorder(done, 1), failure="lost")
    assert done == [1]

    async def fails() -> None:
        raise ConnectionError("layer down")

    outbox.post(fails, failure="channel layer unreachable")
    assert "channel layer unreachable" in caplog.text
