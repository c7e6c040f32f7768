"""The baseline for the load benchmark: Channels fan-out with nothing else.

No database, no sessions, no templates. A socket at /ws/<group>/ joins that group; an
HTTP POST to /push/<group>/<marker>/ sends a fixed payload carrying the marker to the
group (/push/<group>/<marker>/<size>/: one of that many characters, as the evening
benchmark sends each step's frame at the app's size). Served by daphne exactly like the
app: `daphne tests.bench.fanout:application`.
"""

import os

import django
from django.conf import settings

from blades import settings as app_settings

# The app's own choice of layer, configured as the app configures it (blades/settings.py):
# channels-redis when REDIS_URL names a server (`loadtest --processes 2`), otherwise the
# embedded in-memory layer. Without the app's pool size, redis-py failed the commands of
# a storm past 100 at once, and most of bare Channels' handshakes with them.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    HOST = {
        "address": REDIS_URL,
        "socket_timeout": app_settings.REDIS_READ_TIMEOUT,
        "max_connections": app_settings.REDIS_MAX_CONNECTIONS,
    }
    LAYER = {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [HOST], "capacity": app_settings.CHANNEL_CAPACITY},
    }
else:
    LAYER = {
        "BACKEND": "blades.server.channel_layer.InMemoryChannelLayer",
        "CONFIG": {"capacity": app_settings.CHANNEL_CAPACITY},
    }
if not settings.configured:
    settings.configure(CHANNEL_LAYERS={"default": LAYER})
    django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from tests.bench import pauses  # noqa: E402

# About the size of a pushed roll fragment, so both runs move the same bytes.
PAYLOAD = "<div hx-swap-oob='afterbegin:#roll-log'>" + "x" * 600 + "{marker}</div>"


class FanOut(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = self.scope["url_route"]["kwargs"]["group"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def bench_push(self, event: dict) -> None:
        await self.send(text_data=event["html"])


async def push(scope, receive, send) -> None:
    while (await receive()).get("more_body"):
        pass
    _, group, marker, *size = scope["path"].strip("/").split("/")
    html = PAYLOAD.replace("{marker}", marker)
    if size:
        html = marker + "x" * max(0, int(size[0]) - len(marker))
    await get_channel_layer().group_send(group, {"type": "bench.push", "html": html})
    await send({"type": "http.response.start", "status": 204, "headers": []})
    await send({"type": "http.response.body", "body": b""})


# Its pauses are measured as the app's are (tests/bench/app.py), so both carry the same probe.
application = pauses.watch(
    ProtocolTypeRouter(
        {
            "http": push,
            "websocket": URLRouter([path("ws/<str:group>/", FanOut.as_asgi())]),
        }
    )
)
