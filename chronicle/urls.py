from django.urls import path

from . import views

urlpatterns = [
    path("tables/<int:table_id>/discord/", views.discord_settings, name="discord_settings"),
]
