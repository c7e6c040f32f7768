import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blades.settings")

import django  # noqa: E402

django.setup(set_prefix=False)

from blades.server.checkpoint import checkpoint_apart  # noqa: E402
from blades.server.collector import settle  # noqa: E402
from blades.server.handler import OneHopASGIHandler  # noqa: E402

checkpoint_apart()

django_http_app = OneHopASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from blades.server import pauses  # noqa: E402
from blades.server.origin import SameOriginValidator  # noqa: E402
from crews.routing import websocket_urlpatterns as screen_sockets  # noqa: E402
from sessions.routing import websocket_urlpatterns as table_sockets  # noqa: E402

# The load benchmark measures the process's pauses (BLADES_PAUSE_LOG); otherwise as is.
application = pauses.watch(
    ProtocolTypeRouter(
        {
            "http": django_http_app,
            "websocket": SameOriginValidator(
                SessionMiddlewareStack(URLRouter(table_sockets + screen_sockets))
            ),
        }
    )
)

settle()
