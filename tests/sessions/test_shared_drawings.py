"""sessions.shared: the sockets of a burst share a drawing only if it began after they asked."""

import asyncio
import threading

import pytest

from sessions import shared
from tests.helpers import database_thread_held

# The database thread tidies its connection around each drawing, as in the server.
pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


class Counting:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        return f"drawing {self.calls}"


async def test_callers_before_it_begins_share_one_drawing():
    draw = Counting()
    async with database_thread_held():
        asked = [shared.drawing("table-1", draw) for _ in range(3)]
    assert await asyncio.gather(*asked) == ["drawing 1"] * 3
    assert draw.calls == 1


async def test_a_caller_after_it_began_gets_a_drawing_of_its_own():
    began, finish = threading.Event(), threading.Event()
    calls = []

    def draw() -> str:
        calls.append(len(calls) + 1)
        if len(calls) == 1:
            began.set()
            finish.wait(10)
        return f"drawing {len(calls)}"

    first = shared.drawing("table-1", draw)
    assert await asyncio.to_thread(began.wait, 10)
    # What this caller needs may have changed after the first drawing read the table.
    second = shared.drawing("table-1", draw)
    finish.set()
    assert await first == "drawing 1"
    assert await second == "drawing 2"


async def test_different_keys_are_drawn_apart():
    async with database_thread_held():
        gm = shared.drawing(("table-1", True), lambda: "the GM's")
        players = shared.drawing(("table-1", False), lambda: "the players'")
    assert (await gm, await players) == ("the GM's", "the players'")


async def test_then_runs_once_per_drawing_before_any_caller_has_it():
    pushed = []

    async def push(drawing: str) -> None:
        pushed.append(drawing)

    async with database_thread_held():
        asked = [
            asyncio.ensure_future(shared.drawing("t", lambda: "list", then=push)) for _ in range(4)
        ]
        asked[0].add_done_callback(lambda _: pushed.append("a caller has it"))
    await asyncio.gather(*asked)
    assert pushed == ["list", "a caller has it"]


async def test_a_failed_drawing_fails_its_callers_and_the_next_caller_draws_again():
    def fail() -> str:
        raise RuntimeError("database gone")

    async with database_thread_held():
        asked = [shared.drawing("t", fail) for _ in range(2)]
    for caller in asked:
        with pytest.raises(RuntimeError, match="database gone"):
            await caller
    assert await shared.drawing("t", lambda: "drawn again") == "drawn again"


async def test_a_caller_going_away_leaves_the_drawing_to_the_others():
    draw = Counting()
    async with database_thread_held():
        leaving = asyncio.ensure_future(shared.drawing("t", draw))
        staying = asyncio.ensure_future(shared.drawing("t", draw))
        await asyncio.sleep(0)
        leaving.cancel()
    assert await staying == "drawing 1"
    assert leaving.cancelled()
