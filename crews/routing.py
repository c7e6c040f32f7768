from django.urls import path

from .consumers import ScreenConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/screen/", ScreenConsumer.as_asgi()),
    path("ws/screen/<str:token>/", ScreenConsumer.as_asgi()),
]
