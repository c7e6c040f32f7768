from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import ngettext

from . import throttle


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing to check passwords for a locked username."""

    def clean(self):
        username = self.data.get("username", "")
        ip = throttle.client_ip(self.request)
        minutes = throttle.minutes_locked(username, ip)
        if minutes:
            raise ValidationError(
                ngettext(
                    "Too many failed sign-ins for this username. Try again in %(minutes)s minute.",
                    "Too many failed sign-ins for this username. Try again in %(minutes)s minutes.",
                    minutes,
                ),
                code="locked",
                params={"minutes": minutes},
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            throttle.record_failure(username, ip)
            raise
        throttle.clear(username, ip)
        return cleaned


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)
