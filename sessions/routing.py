from django.urls import path, re_path

from blades.server.origin import refuse

from .consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]

# Last in the router: a socket to any other path is refused at its handshake (403), as
# one to a table it may not open is, before anything reads its session. Left to the
# router, "No route found" was a traceback and a 500 for anyone who asked.
unknown_paths = [re_path(r"", refuse)]
