"""The tests' websocket: channels' communicator, with waits a busy machine can meet.

Channels gives up on a connect or an expected frame after 1 s. On a loaded machine (two
cores, a browser suite or another build beside it) a connect that reads the database and
joins its groups in Redis can take longer, and the test failed although nothing was
wrong. What must come is waited for as long as `WAIT`; proving that nothing comes
(`receive_nothing`) keeps its short window, where a slow machine can only make a test
pass that should, never fail one that should not.
"""

from channels.testing import WebsocketCommunicator

WAIT = 10


class Socket(WebsocketCommunicator):
    async def connect(self, timeout: float = WAIT):
        return await super().connect(timeout)

    async def receive_from(self, timeout: float = WAIT):
        return await super().receive_from(timeout)

    async def disconnect(self, code: int = 1000, timeout: float = WAIT):
        return await super().disconnect(code, timeout)
