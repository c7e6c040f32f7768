"""SQLite's log is checkpointed by a thread of its own, never inside a request."""

import threading

import pytest
from django.db import connections

import blades.asgi  # noqa: F401 - serving the app is what hands checkpoints to the thread
from blades.server import checkpoint
from tests.factories import TableFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fresh_connection():
    connection = connections.create_connection("default")
    yield connection
    connection.close()


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
