"""Two daphne processes on one PostgreSQL and one Redis, with real Chromium.

PostgreSQL comes from `python -m tests.services`; Redis is this suite's own, so a test
can kill it under open pages and start it again on the same port. The processes live
for the whole run; a test that killed any of them finds them running again in the next.
"""

import pytest
from django.db import connection

from tests import browsers

# Shared fixtures (Chromium's flags, users the live servers can log in): pytest finds
# them by their names here.
from tests.browsers import browser_type_launch_args as browser_type_launch_args
from tests.browsers import fast_password_hashing as fast_password_hashing
from tests.browsers import make_user as make_user
from tests.live_server import Daphne, watch_logs
from tests.live_server import pytest_runtest_makereport as pytest_runtest_makereport
from tests.services import Redis


@pytest.fixture(scope="session")
def redis_server():
    server = Redis()
    server.start()
    yield server
    server.close()


@pytest.fixture(scope="session")
def daphne_pair(django_db_setup, django_db_blocker, redis_server):
    with django_db_blocker.unblock():
        s = connection.settings_dict
    database_url = f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"
    pair = [Daphne(database_url, redis_url=redis_server.url) for _ in range(2)]
    yield pair
    for server in pair:
        server.stop()
    # A killed process's database sessions linger a moment; end them so the test
    # database can be dropped.
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def running(process) -> bool:
    return process is not None and process.poll() is None


@pytest.fixture
def servers(daphne_pair, redis_server, transactional_db, request):
    """Processes A and B for one test, started again if an earlier test left them down."""
    if not running(redis_server.process):
        redis_server.start()
    for server in daphne_pair:
        if not running(server.process):
            server.start()
    watch_logs(request.node, *daphne_pair)
    return daphne_pair


@pytest.fixture
def person(browser, servers):
    """`person("gm")` logs in on process A; `person("ada", base_url=b.url)` on B. As in
    the browser suite, a Content-Security-Policy violation on any page fails the test."""
    refused = []
    with browsers.people(browser, servers[0].url, browsers.noting_refusals(refused)) as open_as:
        yield open_as
    assert refused == []
