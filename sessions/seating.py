"""Who opened a socket, and whether they sit at its table: asked for a burst at once.

Channels' AuthMiddleware signed each socket in with a trip of its own to the process's
one database thread, and the socket then read its membership in a second. When a busy
process restarts and its 1,000 pages reconnect at once, those trips were over a quarter
of the process's time (a profile of the storm). The sockets that ask while the database
thread is busy are now seated in one trip (sessions/shared): each is signed in by
Django's own `auth.get_user`, exactly as a request is (the session, its user, the
session's hash checked against the user's password), and their memberships are read
together.
"""

import asyncio
import logging
from collections import deque
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from django.contrib import auth
from django.contrib.sessions.backends.base import SessionBase

from . import shared
from .access import memberships
from .steps import ID_MAX

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Seat:
    user: object  # the signed-in user, as auth.get_user gives it
    is_gm: bool


@dataclass(eq=False)
class Asking:
    session: SessionBase | None
    table_id: int
    seat: Seat | None = None  # filled in by the trip that takes this asking


class NewKeyNeeded(Exception):
    pass


class SocketSession:
    """A socket's session as auth.get_user uses a request's. A session that only one of
    SECRET_KEY_FALLBACKS still verifies gets a new key there, which only an answer to a
    request can hand the browser: given on a socket, the browser would keep a key that
    names no session (signed out) while the socket joined a login group no logout can
    reach. Such a socket is refused and the session left as it was; the page's next
    request renews it, and the page's socket, reconnecting, is seated then."""

    def __init__(self, session: SessionBase) -> None:
        self.wrapped = session

    def __getitem__(self, key: str):
        return self.wrapped[key]

    def get(self, key: str, default=None):
        return self.wrapped.get(key, default)

    def flush(self) -> None:
        self.wrapped.flush()

    def cycle_key(self) -> None:
        raise NewKeyNeeded


class SessionOnly:
    """All that auth.get_user reads of a request: its session."""

    def __init__(self, session: SessionBase) -> None:
        self.session = SocketSession(session)


_ASKING: WeakKeyDictionary[asyncio.AbstractEventLoop, deque] = WeakKeyDictionary()


async def seat(session: SessionBase | None, table_id: int) -> Seat | None:
    """The socket's signed-in user and their place at the table; None for anyone else
    (signed out, not a member, a session no longer valid)."""
    asking = Asking(session, table_id)
    queue = _ASKING.setdefault(asyncio.get_running_loop(), deque())
    queue.append(asking)
    # The trip that takes this asking ends before the one awaited here: both run in the
    # one database thread, in the order they began.
    await shared.drawing("seats", lambda: seat_all(queue))
    return asking.seat


def seat_all(queue: deque) -> None:
    """The askings queued when this trip began, in the database thread. Those the loop
    queues meanwhile go with the next trip: a burst that kept coming would otherwise keep
    its first sockets, and every request queued behind them, waiting."""
    signed_in = {}
    failed = 0
    for _ in range(len(queue)):
        asking = queue.popleft()  # a deque hands them over one at a time, safely
        # An id past any column's range is no table (and SQLite cannot even be asked: one
        # hostile socket would fail the whole burst's query).
        if asking.session is None or not 0 < asking.table_id <= ID_MAX:
            continue
        try:
            user = auth.get_user(SessionOnly(asking.session))
        except NewKeyNeeded:
            continue
        except Exception:
            # This socket's sign-in alone: the others of the burst are seated all the same.
            # A database gone fails them all: one traceback says so.
            if not failed:
                logger.exception("Could not sign a socket in")
            failed += 1
            continue
        if user.is_authenticated:
            signed_in[asking] = user
    if failed > 1:
        logger.error("Could not sign %d sockets in", failed)
    found = memberships({(asking.table_id, user.pk) for asking, user in signed_in.items()})
    for asking, user in signed_in.items():
        membership = found.get((asking.table_id, user.pk))
        if membership is not None:
            asking.seat = Seat(user=user, is_gm=membership.is_gm)
