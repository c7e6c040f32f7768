"""Drawings that the sockets of a burst share: one for every socket that asked before it began.

When a busy process restarts, all its pages reconnect at once, and each socket wants its
table's snapshot and to tell the table it is here. Both are the same drawing for every
socket of one table, audience and language, yet each socket drew its own: in a storm of
1,000 sockets the process's one database thread spent three quarters of its time drawing
them again and again, and the last page waited eight to ten seconds for its snapshot.

A socket may take a drawing only if the drawing *begins* after it asked: by then the
socket has joined its groups (snapshot) or written its presence row (presence list), so
the drawing sees everything the socket could otherwise miss. A drawing begins when the
database thread picks it up, which is the moment it stops taking new callers; those who
ask while it is queued behind other work all share it.
"""

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any
from weakref import WeakKeyDictionary

from channels.db import database_sync_to_async


class Drawings:
    """The drawings asked for and not begun yet, in one event loop."""

    def __init__(self) -> None:
        self.waiting: dict[Hashable, asyncio.Future] = {}
        self.tasks: set[asyncio.Task] = set()

    def get(
        self,
        key: Hashable,
        draw: Callable[[], Any],
        then: Callable[[Any], Awaitable[None]] | None = None,
    ) -> Awaitable[Any]:
        """What `draw` returns, drawn in the database thread after this call; callers
        with the same `key` share a drawing that has not begun. `then(drawing)` runs once
        per drawing, on the loop, before any caller gets it (presence: its one push)."""
        future = self.waiting.get(key)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            # A drawing whose callers all went away fails unseen: not worth a log line.
            future.add_done_callback(lambda done: done.cancelled() or done.exception())
            self.waiting[key] = future
            task = asyncio.create_task(self.run(key, future, draw, then))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        # One caller going away (its socket closed) must not cancel the others' drawing.
        return asyncio.shield(future)

    async def run(self, key, future: asyncio.Future, draw, then) -> None:
        def begin():
            # Runs in the database thread. From here on this drawing may miss what a
            # newcomer needs: the next caller starts another.
            del self.waiting[key]
            return draw()

        try:
            drawing = await database_sync_to_async(begin)()
            if then is not None:
                await then(drawing)
        except BaseException as error:
            if self.waiting.get(key) is future:  # cancelled before it began
                del self.waiting[key]
            if isinstance(error, Exception):
                future.set_exception(error)
            else:
                future.cancel()
                raise
        else:
            future.set_result(drawing)


# One per event loop: a future belongs to the loop that made it (tests run several).
_DRAWINGS: WeakKeyDictionary[asyncio.AbstractEventLoop, Drawings] = WeakKeyDictionary()


def drawing(
    key: Hashable,
    draw: Callable[[], Any],
    then: Callable[[Any], Awaitable[None]] | None = None,
) -> Awaitable[Any]:
    return _DRAWINGS.setdefault(asyncio.get_running_loop(), Drawings()).get(key, draw, then)
