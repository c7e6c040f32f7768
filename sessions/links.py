"""The links the app hands out to be opened elsewhere: an invite, the shared screen."""

from django.conf import settings
from django.http import HttpRequest


def absolute(request: HttpRequest, path: str) -> str:
    """`path` on the address the others reach: PUBLIC_URL when set (see settings), else
    the one the asking browser used."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL + path
    return request.build_absolute_uri(path)
