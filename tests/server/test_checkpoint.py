"""SQLite's log is checkpointed by a thread of its own, never inside a request."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connections
from django.db.backends.signals import connection_created

from blades.server import checkpoint
from tests.factories import TableFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fresh_connection():
    # What the server's start-up step does (blades.server.start), for this test only.
    checkpoint.checkpoint_apart()
    connection = connections.create_connection("default")
    yield connection
    connection.close()
    connection_created.disconnect(dispatch_uid=checkpoint.DISPATCH_UID)


def test_request_connections_never_checkpoint(fresh_connection):
    if fresh_connection.vendor != "sqlite":
        pytest.skip("only SQLite has the log")
    with fresh_connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        assert cursor.fetchone() == (0,)


def test_the_thread_copies_the_log_back(fresh_connection, monkeypatch):
    if fresh_connection.vendor != "sqlite":
        pytest.skip("only SQLite has the log")
    fresh_connection.ensure_connection()
    copied = threading.Event()
    run = checkpoint.checkpoint

    def watched(path):
        busy, log, done = run(path)
        if log > 0 and done == log:
            copied.set()
        return busy, log, done

    monkeypatch.setattr(checkpoint, "checkpoint", watched)
    TableFactory()  # something in the log
    assert copied.wait(10)


AUTOCHECKPOINT = (
    "import sys; __import__(sys.argv[1]); from django.db import connection;"
    " print(connection.cursor().execute('PRAGMA wal_autocheckpoint').fetchone()[0])"
)


@pytest.mark.parametrize(("module", "pages"), [("blades.asgi", 1000), ("blades.serve", 0)])
def test_only_serving_hands_checkpoints_to_the_thread(tmp_path, module, pages):
    # 1000: SQLite's own default, a commit past it checkpoints inside its request.
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    out = subprocess.run(
        [sys.executable, "-c", AUTOCHECKPOINT, module],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert int(out) == pages
