"""A socket to a path no consumer serves is refused at its handshake, before any login,
with nothing logged: it used to be a "No route found" traceback and a 500."""

import logging

import pytest

from blades.asgi import application
from tests.helpers import ORIGIN
from tests.sockets import Socket

# No database: the refusal reads nothing, not even the session.
pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize(
    "path",
    ["/ws/nothing/", "/ws/tables/abc/", "/ws/tables/1/nothing/", "/ws/screen/", "/", "/x%00y"],
)
async def test_a_socket_to_an_unknown_path_is_refused_quietly(path, caplog):
    caplog.set_level(logging.DEBUG)
    socket = Socket(application, path, headers=[ORIGIN, (b"host", b"127.0.0.1")])
    connected, code = await socket.connect()
    assert not connected
    # Refused before it was accepted: the server answers the handshake with 403.
    assert code == 1000
    assert [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info] == []
