from django.urls import path

from . import views

urlpatterns = [
    path("tables/<int:table_id>/discord/", views.discord_settings, name="discord_settings"),
    path("tables/<int:table_id>/dice/", views.dice_statistics, name="dice_statistics"),
]
