"""Which language a person reads the app in.

A signed-in user's own choice (kept on their account, `Profile.language`) beats their
browser's Accept-Language, which LocaleMiddleware has already activated; without a choice
the browser's stands. The choice is copied into the session when it is made and at each
login, so that no request asks the database for it.
"""

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from blades.rules.errors import RuleError
from blades.server.language import SESSION_KEY

from . import actions
from .models import Profile


class UserLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = request.session.get(SESSION_KEY)
        if language in dict(settings.LANGUAGES):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


def remember_language(sender, request, user, **kwargs) -> None:
    """At login: the account's choice, if it made one, for this session."""
    language = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    if language:
        request.session[SESSION_KEY] = language


class LanguageForm(forms.Form):
    # Blank: the browser's language again.
    language = forms.ChoiceField(choices=[("", ""), *settings.LANGUAGES], required=False)


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The header's picker. A signed-in user's choice is kept on their account; anyone's
    holds for their session."""
    form = LanguageForm(request.POST)
    if not form.is_valid():
        raise RuleError(_("Choose one of the languages."), field="language")
    language = form.cleaned_data["language"]
    if request.user.is_authenticated:
        actions.choose_language(user=request.user, language=language)
    if language:
        request.session[SESSION_KEY] = language
    else:
        request.session.pop(SESSION_KEY, None)
    back = request.POST.get("next", "")
    # Only a path of this site: a bare word would be read as a view's name.
    safe = url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure())
    if safe and back.startswith("/"):
        return HttpResponseRedirect(back)
    return redirect("home")
