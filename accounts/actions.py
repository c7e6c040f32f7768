"""Changes a user makes to their own account."""

from .models import Profile


def choose_language(*, user, language: str) -> None:
    """`language` is one of settings.LANGUAGES, or "" to follow the browser again."""
    Profile.objects.update_or_create(user=user, defaults={"language": language})
