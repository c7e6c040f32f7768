"""Where a reader's own choice of language is kept, and which language a socket's reader
reads: the same as for their pages (accounts/language.py keeps the choice)."""

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

# The session's key for the reader's choice: UserLanguageMiddleware activates it.
SESSION_KEY = "language"


def socket_language(scope) -> str:
    """The session's choice, else what LocaleMiddleware takes from the browser (its
    cookie, its Accept-Language). The session must have been read already (seating reads
    it): asked here, it needs no database."""
    language = scope["session"].get(SESSION_KEY)
    if language in dict(settings.LANGUAGES):
        return language
    request = HttpRequest()
    request.COOKIES = scope.get("cookies", {})
    headers = dict(scope.get("headers", []))
    request.META["HTTP_ACCEPT_LANGUAGE"] = headers.get(b"accept-language", b"").decode("latin-1")
    return translation.get_language_from_request(request)
