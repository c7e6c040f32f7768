"""`make run-group` as a group meets it: the server on every address, the GM playing on
the server itself (127.0.0.1), a friend elsewhere opening the invite link the GM hands
out, signing up on the way and playing live. The friend's machine is 127.0.0.2 here:
tests address loopback only, never the machine's network address."""

import pytest
from django.db import connection
from playwright.sync_api import expect

from blades import group
from tests.browsers import PASSWORD, noting_refusals, people, wait_for_socket
from tests.live_server import Daphne, watch_logs

pytestmark = pytest.mark.browser

FRIEND = "127.0.0.2"


@pytest.fixture(scope="module")
def group_server(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        database = connection.settings_dict["NAME"]
    server = Daphne(f"sqlite:///{database}", bind="0.0.0.0")
    # What `make run-group` exports, the friend's address standing for the machine's.
    server.env.update(group.environment(server.port, [FRIEND], server.env))
    server.start()
    yield server
    server.stop()


def test_a_friend_joins_by_the_invite_link_from_another_address(
    browser, group_server, make_user, request
):
    watch_logs(request.node, group_server)
    make_user("gm")
    refused = []
    with people(browser, group_server.url, noting_refusals(refused)) as open_as:
        gm = open_as("gm")
        assert gm.url.startswith("http://127.0.0.1:")
        gm.get_by_label("Table name").fill("The Crows' Nest")
        gm.get_by_role("button", name="Create table").click()
        expect(gm.get_by_role("heading", name="The Crows' Nest", level=1)).to_be_visible()
        wait_for_socket(gm)
        invite = gm.get_by_label("Invite link").input_value()
        assert invite.startswith(f"http://{FRIEND}:{group_server.port}/join/")

        friend = open_as()
        friend.goto(invite)
        expect(friend.get_by_role("heading", name="Join The Crows' Nest")).to_be_visible()
        friend.get_by_role("main").get_by_role("link", name="Sign up").click()
        friend.get_by_label("Username").fill("ada")
        friend.get_by_label("Password", exact=True).fill(PASSWORD)
        friend.get_by_label("Password confirmation").fill(PASSWORD)
        friend.get_by_role("button", name="Sign up").click()
        friend.get_by_role("button", name="Join the table").click()
        expect(friend.get_by_role("heading", name="The Crows' Nest", level=1)).to_be_visible()
        wait_for_socket(friend)
        assert friend.url.startswith(f"http://{FRIEND}:")

        # Both ways live: the GM sees the friend arrive, the friend's roll reaches the GM.
        expect(gm.locator("#presence")).to_contain_text("ada")
        friend.get_by_label("Roll type").select_option(label="Fortune")
        friend.get_by_label("Dice").fill("2")
        friend.get_by_label("Note").fill("Over the rooftops")
        friend.get_by_role("button", name="Roll the dice").click()
        expect(gm.locator(".roll").filter(has_text="Over the rooftops")).to_contain_text("ada")
    assert refused == []
