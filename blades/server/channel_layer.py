"""The embedded channel layer: Channels' in-memory layer with its sweep rationed.

The stock layer sweeps every queue and every group membership for expired entries on
each receive and each group_send. A table socket receives once per frame, so with a
thousand sockets each frame pays for a walk over a thousand memberships: the cost of
fan-out grows with the square of the sockets. Messages expire after a minute and
memberships after a day, so sweeping once a second keeps the same guarantees.
"""

import time

from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer

SWEEP_EVERY = 1.0  # seconds


class InMemoryChannelLayer(StockInMemoryChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._next_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY
        super()._clean_expired()
