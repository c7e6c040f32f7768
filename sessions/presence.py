"""Who is here: the rows of open sockets and their pings, written a few at a time.

A page pings every 25 s (table.html) so that a socket whose process died without saying
goodbye drops out of the presence list once its row is PRESENCE_TIMEOUT old. Written one
by one, that is a write for every ping: 40 a second with 1,000 pages open, each queued on
the process's one database thread ahead of the rolls (the load benchmark's p95 went from
157 ms to 441 ms at 33 rolls/s). So the pings of a few seconds go out as one UPDATE,
and the rows of sockets that open or close together as one transaction (below).
"""

import asyncio
import logging
from collections import deque
from datetime import timedelta
from weakref import WeakKeyDictionary

from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone

from . import shared
from .access import memberships
from .models import Presence

logger = logging.getLogger(__name__)

PRESENCE_TIMEOUT = timedelta(seconds=75)
# How long a ping waits for others to share its write. Far inside the margin between the
# page's 25 s pings and PRESENCE_TIMEOUT.
GATHER_SECONDS = 5.0


class Pings:
    """The channel names that pinged since the last write, in one event loop."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.writer: asyncio.Task | None = None

    def add(self, channel_name: str) -> None:
        self.names.add(channel_name)
        if self.writer is None:
            self.writer = asyncio.create_task(self.write_soon())

    async def write_soon(self) -> None:
        try:
            await asyncio.sleep(GATHER_SECONDS)
        finally:
            # Slept out or cancelled (its loop stopping): either way a ping from now on,
            # even one that comes while this write runs, starts the next write.
            names, self.names, self.writer = self.names, set(), None
        try:
            await database_sync_to_async(mark_seen)(names)
        except Exception:
            # Lost pings only age those rows; the next ping of each page writes it again.
            logger.exception("Could not record %d presence pings", len(names))


# One per event loop: a task belongs to the loop that made it (tests run several).
_PINGS: WeakKeyDictionary[asyncio.AbstractEventLoop, Pings] = WeakKeyDictionary()


def ping(channel_name: str) -> None:
    _PINGS.setdefault(asyncio.get_running_loop(), Pings()).add(channel_name)


def mark_seen(channel_names: set[str]) -> None:
    Presence.objects.filter(channel_name__in=channel_names).update(seen=timezone.now())


# A socket's row is written when it opens and deleted when it closes. When a busy process
# restarts that is a write for each of its 1,000 pages, each a transaction of its own on
# the one database thread: the sockets that come or go together share one (sessions/shared).
# (table id, user id, language) of an open socket, no user for a shared-screen link's;
# None: closed.
Place = tuple[int, int | None, str] | None
_CHANGES: WeakKeyDictionary[asyncio.AbstractEventLoop, deque] = WeakKeyDictionary()
DELETE_AT_ONCE = 500  # channel names in one DELETE: well inside SQLite's variable limit


async def arrive(channel_name: str, table_id: int, user_id: int | None, language: str) -> bool:
    """Written, the socket is in every presence list drawn from then on, and every push
    is drawn in its language. False, and nothing written, if the user is no longer a
    member: removed after the socket read its membership and before it joined the group
    the removal kicks (live.kick_member)."""
    return channel_name not in await _record(channel_name, (table_id, user_id, language))


async def leave(channel_name: str) -> None:
    await _record(channel_name, None)


async def _record(channel_name: str, place: Place) -> set[str]:
    changes = _CHANGES.setdefault(asyncio.get_running_loop(), deque())
    changes.append((channel_name, place))
    return await shared.drawing("presence rows", lambda: write(changes))


def write(changes: deque) -> set[str]:
    """Every change queued so far, in one transaction; a channel's last change wins.
    The channels of arrivals refused (no longer members) are returned."""
    latest: dict[str, Place] = {}
    # The loop may queue more meanwhile; a deque hands them over one at a time, safely.
    while changes:
        channel_name, place = changes.popleft()
        latest[channel_name] = place
    arriving = {name: place for name, place in latest.items() if place is not None}
    gone = [name for name, place in latest.items() if place is None]
    with transaction.atomic():
        seats = {place[:2] for place in arriving.values() if place[1] is not None}
        seated = memberships(seats)
        refused = {
            name
            for name, place in arriving.items()
            if place[1] is not None and place[:2] not in seated
        }
        now = timezone.now()
        here = [
            Presence(channel_name=name, table_id=table, user_id=user, language=language, seen=now)
            for name, (table, user, language) in arriving.items()
            if name not in refused
        ]
        if here:
            Presence.objects.bulk_create(
                here,
                update_conflicts=True,
                unique_fields=["channel_name"],
                update_fields=["table", "user", "language", "seen"],
            )
        for start in range(0, len(gone), DELETE_AT_ONCE):
            Presence.objects.filter(channel_name__in=gone[start : start + DELETE_AT_ONCE]).delete()
    return refused
