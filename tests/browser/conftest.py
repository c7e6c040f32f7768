"""Real Chromium against a real daphne.

The daphne process serves the pytest-django test database (a file, see settings), so
what a test writes with the ORM the server reads, and what the browsers do the test
can check. Every browser test uses `transactional_db`: data is committed for the
server to see and flushed after the test.
"""

import os

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from playwright.sync_api import expect

from tests.live_server import Daphne

expect.set_options(timeout=15_000)

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests
# make between clicks are still plain synchronous calls.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

PASSWORD = "a-long-browser-password"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def fast_password_hashing():
    """The server checks these passwords with its own (default) hashers."""


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def daphne(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        database = connection.settings_dict["NAME"]
    server = Daphne(f"sqlite:///{database}")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def server(daphne, transactional_db):
    """The live server for one test; restarted if a test left it down."""
    if daphne.process.poll() is not None:
        daphne.start()
    return daphne


@pytest.fixture
def make_user(transactional_db):
    def make(username: str):
        return get_user_model().objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def person(browser, server):
    """A browser context per person at the table; `person("gm")` logs them in."""
    contexts = []

    def open_as(username: str | None = None, viewport=None):
        context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
        # Generous: on 2 busy cores a password hash alone can take seconds.
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        if username:
            log_in(page, server.url, username)
        return page

    yield open_as
    for context in contexts:
        context.close()


def log_in(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/tables/**")


def wait_for_socket(page) -> None:
    page.wait_for_function("document.body.dataset.socket === 'open'")


def assert_accessible(page) -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    serious = [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]
    assert serious == []


def assert_fits_phone(page) -> None:
    """Nothing sticks out sideways at a phone's width."""
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
