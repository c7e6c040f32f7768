from django.contrib.auth import views as auth_views
from django.urls import path

from blades.server.hashing import hashes_passwords

from . import language, views

urlpatterns = [
    path("login/", hashes_passwords(views.LoginView.as_view()), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", hashes_passwords(views.signup), name="signup"),
    path("language/", language.choose_language, name="language"),
]
