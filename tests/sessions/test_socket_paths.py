"""A socket to a path no consumer serves is refused at its handshake, before any login,
with nothing logged: it used to be a "No route found" traceback and a 500."""

import logging

import pytest
from channels.layers import get_channel_layer

from blades.asgi import application
from sessions.routing import Refusal
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


async def test_a_refused_socket_takes_no_channel_on_the_layer():
    """Refused, it has nothing to hear: no channel, so no Redis receive left waiting."""
    assert get_channel_layer() is not None
    assert get_channel_layer(Refusal.channel_layer_alias) is None
