"""The ASGI application: HTTP through Django, the table's and the screen's sockets through
Channels. Importing it builds the application and nothing else; daphne serves it through
blades/serve.py, which also starts the server process (blades.server.start)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blades.settings")

import django  # noqa: E402

django.setup(set_prefix=False)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from blades.server.handler import OneHopASGIHandler  # noqa: E402
from blades.server.origin import SameOriginValidator  # noqa: E402
from crews.routing import websocket_urlpatterns as screen_sockets  # noqa: E402
from sessions.routing import unknown_paths  # noqa: E402
from sessions.routing import websocket_urlpatterns as table_sockets  # noqa: E402

django_http_app = OneHopASGIHandler()

application = ProtocolTypeRouter(
    {
        "http": django_http_app,
        "websocket": SameOriginValidator(
            SessionMiddlewareStack(URLRouter(table_sockets + screen_sockets + unknown_paths))
        ),
    }
)
