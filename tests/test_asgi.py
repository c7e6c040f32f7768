"""The HTTP side of the ASGI application that daphne serves: every middleware still
runs, and a change made through it reaches the table's sockets."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator
from django.contrib.auth.hashers import MD5PasswordHasher

from blades.asgi import application
from sessions.models import Roll
from tests.factories import MembershipFactory, TableFactory, UserFactory
from tests.helpers import ORIGIN, session_cookie
from tests.sockets import Socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

CSRF = "a" * 32


@database_sync_to_async
def seated_player():
    table = TableFactory()
    player = MembershipFactory(table=table).user
    return table, session_cookie(player)


async def answer(communicator: HttpCommunicator) -> dict:
    response = await communicator.get_response(timeout=5)
    # The handler closes the request body after answering: let it finish.
    await communicator.wait(timeout=5)
    return response


async def post_roll(table_id: int, cookie: str, *, with_token: bool):
    headers = [
        (b"cookie", f"{cookie}; csrftoken={CSRF}".encode()),
        (b"content-type", b"application/x-www-form-urlencoded"),
        (b"hx-request", b"true"),
        (b"host", b"127.0.0.1"),
    ]
    if with_token:
        headers.append((b"x-csrftoken", CSRF.encode()))
    communicator = HttpCommunicator(
        application,
        "POST",
        f"/tables/{table_id}/rolls/",
        body=b"kind=fortune&pool=2&note=Through+daphne",
        headers=headers,
    )
    return await answer(communicator)


async def test_a_roll_posted_through_the_asgi_app_is_stored_and_pushed():
    table, cookie = await seated_player()
    socket = Socket(
        application, f"/ws/tables/{table.pk}/", headers=[ORIGIN, (b"cookie", cookie.encode())]
    )
    assert (await socket.connect())[0]
    await socket.receive_from()  # snapshot
    await socket.receive_from()  # presence

    response = await post_roll(table.pk, cookie, with_token=True)

    assert response["status"] == 204
    assert "Through daphne" in await socket.receive_from(timeout=5)
    assert await database_sync_to_async(Roll.objects.filter(table=table).count)() == 1
    await socket.disconnect()


async def test_the_asgi_app_refuses_a_post_without_its_csrf_token():
    table, cookie = await seated_player()
    response = await post_roll(table.pk, cookie, with_token=False)
    assert response["status"] == 403
    assert await database_sync_to_async(Roll.objects.count)() == 0


async def test_pages_served_through_the_asgi_app_carry_the_security_headers():
    communicator = HttpCommunicator(
        application, "GET", "/accounts/login/", headers=[(b"host", b"127.0.0.1")]
    )
    response = await answer(communicator)
    headers = dict(response["headers"])
    assert response["status"] == 200
    assert headers[b"X-Frame-Options"] == b"DENY"
    assert headers[b"X-Content-Type-Options"] == b"nosniff"


class HeldHasher(MD5PasswordHasher):
    """Checks a password only when the test lets it: a hash that takes as long as needed."""

    checking = threading.Event()
    done = threading.Event()

    def verify(self, password, encoded):
        HeldHasher.checking.set()
        HeldHasher.done.wait(timeout=10)
        return super().verify(password, encoded)


async def test_a_sign_in_checking_its_password_does_not_hold_up_the_table(settings):
    settings.PASSWORD_HASHERS = ["tests.test_asgi.HeldHasher"]
    HeldHasher.checking.clear()
    HeldHasher.done.clear()
    table, cookie = await seated_player()
    await database_sync_to_async(UserFactory)(username="late")
    sign_in = HttpCommunicator(
        application,
        "POST",
        "/accounts/login/",
        body=f"username=late&password=a-long-test-password&csrfmiddlewaretoken={CSRF}".encode(),
        headers=[
            (b"cookie", f"csrftoken={CSRF}".encode()),
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"host", b"127.0.0.1"),
        ],
    )
    signing_in = asyncio.ensure_future(answer(sign_in))
    assert await asyncio.to_thread(HeldHasher.checking.wait, 5)
    try:
        # While the password is still being checked, a roll at the table goes through.
        assert (await post_roll(table.pk, cookie, with_token=True))["status"] == 204
    finally:
        HeldHasher.done.set()
    assert (await signing_in)["status"] == 302
