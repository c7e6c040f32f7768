from django.urls import path

from . import language, views

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/", views.table_list, name="table_list"),
    path("tables/<int:table_id>/", views.table_detail, name="table_detail"),
    path("join/<str:token>/", views.join, name="join"),
    path("tables/<int:table_id>/invite/new/", views.invite_regenerate, name="invite_regenerate"),
    path("tables/<int:table_id>/invite/revoke/", views.invite_revoke, name="invite_revoke"),
    path(
        "tables/<int:table_id>/members/<int:user_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("tables/<int:table_id>/language/", language.set_table_language, name="table_language"),
    path("tables/<int:table_id>/rolls/", views.roll_create, name="roll_create"),
    path("tables/<int:table_id>/clocks/", views.clock_create, name="clock_create"),
    path(
        "tables/<int:table_id>/clocks/<int:clock_id>/",
        views.clock_update,
        name="clock_update",
    ),
    path(
        "tables/<int:table_id>/clocks/<int:clock_id>/tick/",
        views.clock_tick,
        name="clock_tick",
    ),
    path(
        "tables/<int:table_id>/clocks/<int:clock_id>/delete/",
        views.clock_delete,
        name="clock_delete",
    ),
]
