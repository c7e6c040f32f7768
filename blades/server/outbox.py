"""Hand work to the server's event loop from a request's thread without waiting for it.

A request's pushes go to the channel layer, which lives on the event loop. Waiting for
the loop to take them (`async_to_sync`) stalled the request thread behind every frame
the loop had queued: under load, a quarter of that thread's time. Here the request's
thread leaves its sends with the loop and goes on. They still go out one at a time, in
the order they were posted, so a socket never sees two changes swapped. Only when the
loop has fallen `BACKLOG` sends behind does a posting thread wait: an overloaded server
then answers requests more slowly, instead of answering at once and showing the change
seconds later (and holding an ever longer queue in memory).

Only requests served by `blades.server.handler` know the loop (`serve_from`); anywhere else (a test
calling an action, a management command) the send runs at once and is waited for.
"""

import asyncio
import logging
import threading
from collections import deque
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from weakref import WeakKeyDictionary

from asgiref.sync import async_to_sync

logger = logging.getLogger(__name__)

Send = Callable[[], Awaitable[None]]

BACKLOG = 32
# A loop that stops (the server shutting down) never gives room back: don't wait forever.
ROOM_TIMEOUT = 10  # seconds

_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("outbox_loop", default=None)
# Sends waiting on each loop; touched only from that loop's own thread.
_waiting: "WeakKeyDictionary[asyncio.AbstractEventLoop, deque[Send]]" = WeakKeyDictionary()
# Room left in each loop's backlog: taken by the posting thread, given back by the loop.
# Bounded: giving back room that was never taken raises instead of growing the backlog.
_room: "WeakKeyDictionary[asyncio.AbstractEventLoop, threading.BoundedSemaphore]" = (
    WeakKeyDictionary()
)


def serve_from(loop: asyncio.AbstractEventLoop) -> None:
    """Called on the event loop before crossing to a thread: the thread posts to it."""
    _loop.set(loop)


def post(send: Send, *, failure: str) -> None:
    """Run `send` on the server's loop after everything posted before it. If it fails,
    log `failure` with the error: by the time anything is posted, the change it carries
    has committed, and a failed push must not turn into a failed request."""
    loop = _loop.get()
    if loop is None or loop.is_closed():
        try:
            async_to_sync(send)()
        except Exception:
            logger.exception(failure)
        return
    room = _room.setdefault(loop, threading.BoundedSemaphore(BACKLOG))
    # Timed out, the send still goes but took no room, so it gives none back.
    took_room = room.acquire(timeout=ROOM_TIMEOUT)
    loop.call_soon_threadsafe(_enqueue, loop, send, failure, took_room)


def _enqueue(loop: asyncio.AbstractEventLoop, send: Send, failure: str, took_room: bool) -> None:
    waiting = _waiting.setdefault(loop, deque())
    waiting.append((send, failure, took_room))
    if len(waiting) == 1:
        # Nothing is draining this loop's sends: start. The drain ends when they do,
        # so no task outlives its work.
        loop.create_task(_drain(waiting, _room[loop]))


async def _drain(waiting: deque, room: threading.BoundedSemaphore) -> None:
    while waiting:
        send, failure, took_room = waiting[0]
        try:
            await send()
        except Exception:
            logger.exception(failure)
        waiting.popleft()
        if took_room:
            room.release()
