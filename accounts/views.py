from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from .forms import SignupForm, ThrottledAuthenticationForm


class LoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm


def signup(request: HttpRequest) -> HttpResponse:
    """Anyone's sign-up, unless the server closed it (SIGNUP_OPEN=0): then only an invite
    link's own sign-up (sessions/views.join_signup) makes an account."""
    if not settings.SIGNUP_OPEN:
        return render(request, "registration/signup_closed.html", status=403)
    return signup_form(request, request.POST.get("next") or request.GET.get("next") or "")


def signup_form(request: HttpRequest, next_url: str) -> HttpResponse:
    """The sign-up form on the page asked for; once the account is made, on to `next_url`."""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect(_safe_next(request, next_url) or "table_list")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def signup_open(request: HttpRequest) -> dict:
    """The context processor that tells the pages whether to offer the sign-up."""
    return {"signup_open": settings.SIGNUP_OPEN}


def _safe_next(request: HttpRequest, url: str) -> str:
    if url and url_has_allowed_host_and_scheme(url, {request.get_host()}):
        return url
    return ""
