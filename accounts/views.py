from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from .forms import SignupForm, ThrottledAuthenticationForm


class LoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm


def signup(request: HttpRequest) -> HttpResponse:
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect(_safe_next(request, next_url) or "table_list")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def _safe_next(request: HttpRequest, url: str) -> str:
    if url and url_has_allowed_host_and_scheme(url, {request.get_host()}):
        return url
    return ""
