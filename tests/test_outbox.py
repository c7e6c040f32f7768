"""Pushes posted from a request's thread: they do not hold the thread, and go out in order."""

import asyncio
import logging
import threading

import pytest
from asgiref.sync import sync_to_async

from blades.server import outbox


class Sends:
    """What the loop has started and finished sending, and a way to wait for either."""

    def __init__(self) -> None:
        self.started: list[int] = []
        self.done: list[int] = []
        self.changed = asyncio.Event()

    def recorder(self, n: int, gate: asyncio.Event | None = None):
        async def send() -> None:
            self.started.append(n)
            self.changed.set()
            if gate is not None:
                await gate.wait()
            self.done.append(n)
            self.changed.set()

        return send

    async def until(self, condition) -> None:
        async with asyncio.timeout(10):
            while not condition():
                self.changed.clear()
                await self.changed.wait()


@pytest.mark.asyncio
async def test_a_thread_posts_without_waiting_and_the_sends_keep_their_order():
    outbox.serve_from(asyncio.get_running_loop())
    sends = Sends()
    gate = asyncio.Event()  # holds the first send, so the others must queue behind it

    def request_thread() -> list[int]:
        outbox.post(sends.recorder(0, gate), failure="lost")
        for n in range(1, 5):
            outbox.post(sends.recorder(n), failure="lost")
        return list(sends.done)

    assert await sync_to_async(request_thread)() == []
    # Sends started side by side would all have started in the loop's turn that
    # started the first: by the time this wakes, only the held first one has.
    await sends.until(lambda: sends.started)
    assert (sends.started, sends.done) == ([0], [])
    gate.set()
    await sends.until(lambda: len(sends.done) == 5)
    assert sends.done == [0, 1, 2, 3, 4]


@pytest.mark.asyncio
async def test_a_thread_that_outruns_the_loop_waits_for_room(monkeypatch):
    monkeypatch.setattr(outbox, "BACKLOG", 2)
    outbox.serve_from(asyncio.get_running_loop())
    sends = Sends()
    gate = asyncio.Event()
    third = threading.Event()
    done_when_posted: list[int] = []

    def request_thread() -> None:
        for n in range(2):
            outbox.post(sends.recorder(n, gate), failure="lost")
        third.set()
        outbox.post(sends.recorder(2, gate), failure="lost")
        done_when_posted.extend(sends.done)

    thread = asyncio.ensure_future(sync_to_async(request_thread)())
    # Two sends pending and held: the third post can only return once one has gone.
    await asyncio.to_thread(third.wait, 10)
    gate.set()
    await thread
    assert done_when_posted[:1] == [0]
    await sends.until(lambda: len(sends.done) == 3)
    assert sends.done == [0, 1, 2]


@pytest.mark.asyncio
async def test_a_post_that_gave_up_waiting_leaves_the_backlog_as_bounded(monkeypatch):
    monkeypatch.setattr(outbox, "BACKLOG", 1)
    monkeypatch.setattr(outbox, "ROOM_TIMEOUT", 0.05)
    outbox.serve_from(asyncio.get_running_loop())
    sends = Sends()
    gate = asyncio.Event()

    def overrun() -> None:
        outbox.post(sends.recorder(0, gate), failure="lost")
        outbox.post(sends.recorder(1), failure="lost")  # no room: gives up waiting

    await sync_to_async(overrun)()
    gate.set()
    await sends.until(lambda: len(sends.done) == 2)

    # The backlog holds one send again: a second post waits for the first to go.
    monkeypatch.setattr(outbox, "ROOM_TIMEOUT", 10)
    gate = asyncio.Event()
    first = threading.Event()
    done_when_posted: list[int] = []

    def request_thread() -> None:
        outbox.post(sends.recorder(2, gate), failure="lost")
        first.set()
        outbox.post(sends.recorder(3), failure="lost")
        done_when_posted.extend(sends.done)

    thread = asyncio.ensure_future(sync_to_async(request_thread)())
    await asyncio.to_thread(first.wait, 10)
    gate.set()
    await thread
    assert 2 in done_when_posted
    await sends.until(lambda: len(sends.done) == 4)


@pytest.mark.asyncio
async def test_a_failed_send_is_logged_and_the_next_still_goes(caplog):
    outbox.serve_from(asyncio.get_running_loop())
    sends = Sends()

    async def fails() -> None:
        raise ConnectionError("layer down")

    def request_thread() -> None:
        outbox.post(fails, failure="channel layer unreachable")
        outbox.post(sends.recorder(1), failure="lost")

    with caplog.at_level(logging.ERROR, logger="blades.server.outbox"):
        await sync_to_async(request_thread)()
        await sends.until(lambda: sends.done)
    assert sends.done == [1]
    assert "channel layer unreachable" in caplog.text and "layer down" in caplog.text


def test_without_a_server_loop_the_send_runs_before_post_returns(caplog):
    sends = Sends()
    outbox.post(sends.recorder(1), failure="lost")
    assert sends.done == [1]

    async def fails() -> None:
        raise ConnectionError("layer down")

    outbox.post(fails, failure="channel layer unreachable")
    assert "channel layer unreachable" in caplog.text
