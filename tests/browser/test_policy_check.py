"""Every browser test fails on a Content-Security-Policy violation in its console (the
`person` fixture, tests/browsers.py noting_refusals): here the check is shown to see one,
an inline style swapped into a page as a fragment carrying one would be."""

import pytest
from playwright.sync_api import expect

from tests import browsers

pytestmark = pytest.mark.browser

INLINE_STYLE = "document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')"


def test_an_inline_style_is_noted_as_refused(browser, server):
    refused = []
    with browsers.people(browser, server.url, browsers.noting_refusals(refused)) as open_as:
        page = open_as()
        page.goto(server.url + "/accounts/login/")
        expect(page.get_by_role("button", name="Log in")).to_be_visible()
        assert refused == []  # the page itself needs nothing inline
        with page.expect_console_message(lambda message: "Content Security Policy" in message.text):
            page.evaluate(INLINE_STYLE)
    assert len(refused) == 1 and "/accounts/login/" in refused[0]
