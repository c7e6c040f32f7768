from django.urls import include, path

urlpatterns = [
    path("", include("sessions.urls")),
    path("", include("characters.urls")),
    path("", include("crews.urls")),
    path("", include("rolls.urls")),
    path("", include("backup.urls")),
]
