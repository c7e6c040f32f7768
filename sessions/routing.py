from channels.security.websocket import WebsocketDenier
from django.urls import path, re_path

from .consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]


# Last in the router: a socket to any other path is refused at its handshake (403), as
# one to a table it may not open is, before anything reads its session. Left to the
# router, "No route found" was a traceback and a 500 for anyone who asked.
class Refusal(WebsocketDenier):
    # Refused at its handshake, it has nothing to hear: an alias no setting configures
    # gives it no channel on the layer (Channels' get_channel_layer answers None). With
    # one, each refused socket kept a blocking Redis receive open until its client left,
    # and a test's loop could hang cancelling it.
    channel_layer_alias = "none"


unknown_paths = [re_path(r"", Refusal.as_asgi())]
