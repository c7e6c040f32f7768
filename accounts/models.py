from django.conf import settings
from django.db import models


class LoginFailure(models.Model):
    """One failed sign-in. Kept in the database so every daphne process counts the same
    failures: a guesser cannot spread attempts over processes to dodge the limit."""

    username = models.CharField(max_length=150)
    ip = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["username", "at"], name="login_failure_by_name")]

    def __str__(self) -> str:
        return f"{self.username} from {self.ip} at {self.at}"


class Profile(models.Model):
    """What a user chose for themselves, kept on the account so it follows them to any
    browser they sign in from."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="profile"
    )
    # One of settings.LANGUAGES, or blank to follow the browser's Accept-Language.
    language = models.CharField(max_length=10, blank=True, default="")

    def __str__(self) -> str:
        return f"{self.user}: {self.language or 'browser language'}"
