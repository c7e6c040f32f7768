"""Which pages may open a table socket: only this site's own, by scheme, host and port.

Channels' AllowedHostsOriginValidator compares the Origin's host with ALLOWED_HOSTS and
lets any scheme and any port through: a page served from `http://127.0.0.1:1` (another
program on the same machine) could open a socket to a site on `:8000` with the visitor's
cookie. A socket carries no CSRF token, so the Origin is all that tells a page of this
site from another one. The check is Django's own for CSRF: the Origin must be the
origin the request was made to (the scheme it arrived with and its Host header, which
must be an allowed host), or one listed in CSRF_TRUSTED_ORIGINS.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, with the scheme's default port filled in."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def _secure(scope, headers: dict[bytes, bytes]) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    # Behind the TLS proxy (HTTPS=1), as Django decides for every other request.
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, value = proxy_header
        header = name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin1")
        return headers.get(header, b"").decode("latin1") == value
    return False


def own_origin(scope) -> tuple[str, str, int] | None:
    """The origin this socket was opened to, or None when its Host is not ours."""
    headers = dict(scope.get("headers", []))
    scheme = "https" if _secure(scope, headers) else "http"
    host = headers.get(b"host", b"").decode("latin1")
    if not host:
        # Every browser sends Host. Only an in-process test client leaves it out; the
        # site is then taken to be on its scheme's default port.
        return scheme, "", DEFAULT_PORTS[scheme]
    domain, port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return scheme, domain.strip("[]"), int(port) if port else DEFAULT_PORTS[scheme]


def allowed(scope) -> bool:
    origin = None
    for name, value in scope.get("headers", []):
        if name == b"origin":
            origin = _origin(value.decode("latin1"))
    if origin is None:
        return False
    if origin in {_origin(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS}:
        return True
    site = own_origin(scope)
    if site is None:
        return False
    scheme, host, port = site
    if not host:
        named = f"[{origin[1]}]" if ":" in origin[1] else origin[1]
        return (origin[0], origin[2]) == (scheme, port) and validate_host(
            named, settings.ALLOWED_HOSTS
        )
    return origin == site


class SameOriginValidator:
    """Refuses a socket (before the handshake completes) unless `allowed`."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and allowed(scope):
            return await self.application(scope, receive, send)
        return await refuse(scope, receive, send)


async def refuse(scope, receive, send) -> None:
    """Refuses a socket at its handshake (the server answers 403). Plain ASGI, not a
    consumer: Channels gives every consumer a channel on the layer, and a refused socket,
    with nothing to hear, would keep a Redis receive open until its client left."""
    if (await receive())["type"] == "websocket.connect":
        await send({"type": "websocket.close"})
