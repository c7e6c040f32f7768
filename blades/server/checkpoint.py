"""SQLite's write-ahead log folded back into the database by a thread of its own.

By default the commit that takes the log past 1,000 pages checkpoints it, inside that
request. The server does all its database work in one thread (handler.py), so every
request and socket of the process waited out that checkpoint: the load benchmark's slowest
rolls came in bursts around them. Here request connections never checkpoint
(`wal_autocheckpoint=0`) and a thread checkpoints every `EVERY` seconds with a
connection of its own, PASSIVE: it copies what no reader still needs and waits for
nobody. Python's sqlite3 lets go of the GIL while SQLite works, so the copying costs the
event loop and the request thread nothing. PostgreSQL is left alone.
"""

import logging
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

from django.db.backends.signals import connection_created

logger = logging.getLogger(__name__)

EVERY = 1.0  # seconds
DISPATCH_UID = "blades.server.checkpoint"

_running: set[str] = set()
_lock = threading.Lock()


def checkpoint_apart() -> None:
    """From now on, each new SQLite connection leaves checkpoints to the thread."""
    connection_created.connect(leave_checkpoints, dispatch_uid=DISPATCH_UID)


def leave_checkpoints(sender, connection, **kwargs) -> None:
    if connection.vendor != "sqlite":
        return
    path = str(connection.settings_dict["NAME"])
    if path == ":memory:" or path.startswith("file:"):
        return  # an in-memory database has no log
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint=0")
    with _lock:
        if path in _running:
            return
        _running.add(path)
    threading.Thread(target=checkpoint_every, args=(path,), name="checkpoint", daemon=True).start()


def checkpoint_every(path: str) -> None:
    while True:
        time.sleep(EVERY)
        try:
            checkpoint(path)
        except sqlite3.Error:
            # A busy or vanished file (a test database dropped): the next round tries again.
            logger.debug("SQLite checkpoint of %s skipped", path, exc_info=True)


def checkpoint(path: str) -> tuple[int, int, int]:
    """(busy, pages in the log, pages copied back), as SQLite reports them."""
    # mode=rw: never create the file if it has gone.
    uri = f"{Path(path).resolve().as_uri()}?mode=rw"
    with closing(sqlite3.connect(uri, uri=True, timeout=0)) as db:
        return db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
