"""Real Chromium for the browser and scale suites: launch flags, people, and checks.

Both suites drive Playwright's sync API, so importing this module also sets what that
needs (see below); each suite runs in its own pytest process for the same reason.
"""

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

expect.set_options(timeout=15_000)

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests
# make between clicks are still plain synchronous calls.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

PASSWORD = "a-long-browser-password"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


# The fixtures both suites' conftests import (pytest finds them there).


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, headless, without the background traffic a test never needs."""
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


@pytest.fixture(autouse=True)
def fast_password_hashing():
    """The live server checks passwords with its own (default) hashers."""


@pytest.fixture
def make_user(transactional_db):
    """`make_user(name)`: a user who logs in by cookie, with no password to hash (about
    a second of PBKDF2 on a busy core); `make_user(name, password=PASSWORD)` for a test
    that logs in through the form."""

    def make(username: str, password: str | None = None):
        return get_user_model().objects.create_user(username=username, password=password)

    return make


@contextmanager
def people(
    browser: Browser, base_url: str, watch: Callable[[BrowserContext], None] = lambda context: None
) -> Iterator[Callable[..., Page]]:
    """Yield `open_as(username=None, viewport=None, base_url=..., locale=None,
    timezone_id=None)`: a fresh browser context per person (its browser's language
    `locale`, its clock's zone `timezone_id`), logged in on that server when a username is
    given; `watch` sees each context before its first page opens."""
    contexts = []

    def open_as(
        username: str | None = None,
        viewport=None,
        base_url: str = base_url,
        locale=None,
        timezone_id=None,
    ) -> Page:
        context = browser.new_context(
            viewport=viewport or {"width": 1280, "height": 900},
            locale=locale,
            timezone_id=timezone_id,
        )
        # Generous: on 2 busy cores a password hash alone can take seconds.
        context.set_default_timeout(30_000)
        contexts.append(context)
        watch(context)
        if username:
            log_in(context, base_url, username)
        page = context.new_page()
        if username:
            page.goto(base_url + reverse(settings.LOGIN_REDIRECT_URL))
        return page

    try:
        yield open_as
    finally:
        for context in contexts:
            context.close()


def noting_refusals(refused: list[str]) -> Callable[[BrowserContext], None]:
    """A `watch` for people() that notes in `refused` every Content-Security-Policy
    violation any page of the context reports: the browser only logs those (the inline
    style or evaluated code is refused, and the page may still look right)."""

    def note(message) -> None:
        if "Content Security Policy" in message.text:
            refused.append(f"{message.page and message.page.url}: {message.text}")

    return lambda context: context.on("console", note)


def log_in(context: BrowserContext, base_url: str, username: str) -> None:
    """Log a browser in by cookie: a session made in the database, which the server
    reads as if its own login view had made it. One test logs in through the form."""
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": base_url}]
    )


def wait_for_socket(page: Page, state: str = "open") -> None:
    """Wait until the page's table socket is "open" (or "closed": the page shows it is offline)."""
    # Waited for through a locator: the Content-Security-Policy forbids the string
    # evaluation that wait_for_function polls with.
    expect(page.locator("body")).to_have_attribute("data-socket", state)


def start_table(person, make_user):
    """The GM makes "The Crows' Nest"; Ada and Bo join by the invite link; all three
    pages have their sockets open."""
    for name in ("gm", "ada", "bo"):
        make_user(name)
    gm = person("gm")
    gm.get_by_label("Table name").fill("The Crows' Nest")
    gm.get_by_role("button", name="Create table").click()
    expect(gm.get_by_role("heading", name="The Crows' Nest", level=1)).to_be_visible()
    invite = gm.get_by_label("Invite link").input_value()
    players = []
    for name in ("ada", "bo"):
        page = person(name)
        page.goto(invite)
        page.get_by_role("button", name="Join the table").click()
        expect(page.get_by_role("heading", name="The Crows' Nest", level=1)).to_be_visible()
        players.append(page)
    for page in (gm, *players):
        wait_for_socket(page)
    return gm, players[0], players[1]


def assert_accessible(page: Page) -> None:
    from axe_playwright_python.sync_playwright import Axe

    # axe reads colours as drawn: a die mid-tumble or a result mid-fade would be measured
    # half-way. Under reduced motion the pages draw no animation at all, so axe reads what
    # stays on screen. (Waiting for the animations to end hung: a page behind another
    # does not advance its animations.)
    was_reduced = page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    page.emulate_media(reduced_motion="reduce")
    try:
        results = Axe().run(page)
    finally:
        page.emulate_media(reduced_motion="reduce" if was_reduced else "null")
    serious = [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]
    assert serious == []


def assert_fits_phone(page: Page) -> None:
    """Nothing sticks out sideways at a phone's width."""
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0


def read_well_at_both_sizes(*pages: Page) -> None:
    """Each page as a phone and as a desktop: no serious axe finding, nothing sideways;
    each is left at the size it had."""
    for page in pages:
        size = page.viewport_size
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            assert_accessible(page)
            if viewport is PHONE:
                assert_fits_phone(page)
        page.set_viewport_size(size)


def add_clock(gm, name, segments, visibility="Everyone"):
    if gm.locator("details.new-clock[open]").count() == 0:
        gm.get_by_text("New clock").click()
    form = gm.locator("#clock-form")
    form.get_by_label("Clock name").fill(name)
    form.get_by_label("Segments", exact=True).fill(str(segments))
    form.get_by_label("Visible to").select_option(label=visibility)
    form.get_by_role("button", name="Add clock").click()
    expect(gm.get_by_role("heading", name=name)).to_be_visible()
    # The push can come before the answer: the form is ready for the next clock once cleared.
    expect(form.get_by_label("Clock name")).to_have_value("")


# Answers to this page's requests (all, or those of one method), held in the page until
# the test hands them to htmx: the server has answered (and drawn the answer) already, only
# the way home is slow. How many are held is written on the body, to be waited for through
# a locator: the Content-Security-Policy forbids the string evaluation wait_for_function
# polls with. `page.evaluate(HOLD_ANSWERS, "POST")`, or None for every request.
HOLD_ANSWERS = """(method) => {
  window.heldAnswers = [];
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (verb, ...rest) {
    this.tableMethod = verb;
    return open.call(this, verb, ...rest);
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    const xhr = this;
    if (!method || xhr.tableMethod === method) {
      const onload = xhr.onload;
      xhr.onload = (event) => {
        window.heldAnswers.push(() => onload.call(xhr, event));
        document.body.dataset.heldAnswers = String(window.heldAnswers.length);
      };
    }
    return send.call(xhr, body);
  };
}"""
