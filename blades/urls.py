from django.urls import include, path

urlpatterns = [
    path("accounts/", include("accounts.urls")),
    path("", include("sessions.urls")),
    path("", include("characters.urls")),
    path("", include("crews.urls")),
    path("", include("rolls.urls")),
    path("", include("play.urls")),
    path("", include("backup.urls")),
    path("", include("chronicle.urls")),
]
