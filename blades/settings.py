"""Settings, all from the environment.

Defaults give the embedded set-up: one daphne process, SQLite in WAL mode and the
in-memory channel layer. `DATABASE_URL` and `REDIS_URL` switch to PostgreSQL and
Redis for running several processes.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from blades.group import LOOPBACK_HOSTS, as_host

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    return os.environ.get(name, "1" if default else "0").lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for a development key).")
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", LOOPBACK_HOSTS)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# Where the others reach this site, for the links it hands out (an invite, the shared
# screen): `http://192.168.1.20:8000` for a group on a home network (`make run-group` sets
# it, blades/group.py), `https://blades.example.org` behind a proxy or a tunnel. Unset, a
# link is built from the address in the asking browser: 127.0.0.1 for a GM on the server.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").rstrip("/")
if PUBLIC_URL:
    public = urlsplit(PUBLIC_URL)
    if public.scheme not in {"http", "https"} or not public.hostname or public.path + public.query:
        raise ImproperlyConfigured(
            "PUBLIC_URL is a scheme, a host and maybe a port: http://192.168.1.20:8000"
        )
    # Its host is this site's, and so is its origin: a tunnel's https arrives at a
    # plain-http daphne, and the form posts and sockets from it are still its own.
    ALLOWED_HOSTS.append(as_host(public.hostname))
    CSRF_TRUSTED_ORIGINS.append(f"{public.scheme}://{public.netloc}")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "sessions.apps.TableSessionsConfig",
    "characters",
    "crews",
    "rolls",
    "play",
    "accounts",
    "backup",
    "chronicle",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The browser's Accept-Language, after the session and before anything that renders.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in user's own choice of language beats the browser's (once the user is known).
    "accounts.language.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, so it is the first to see a view's exception: a RuleError becomes a 422.
    "sessions.refusals.RefusalMiddleware",
]

# Scripts, styles and sockets from this site only: no inline script, no inline event
# handler, no evaluated code (htmx runs with allowEval off), no inline style. A name
# that slipped into a page unescaped could then still not run as code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "blades.urls"
ASGI_APPLICATION = "blades.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.views.signup_open",
            ],
        },
    },
]

SQLITE_OPTIONS = {
    # IMMEDIATE takes the write lock at BEGIN, so concurrent writers queue on
    # busy_timeout instead of failing with "database is locked" on upgrade. SQLite's
    # busy handler backs off in growing sleeps, so with 50 clicks at once the last
    # writer can wait over 5 s (tests/reliability): 30 s of patience, not a 500.
    "transaction_mode": "IMMEDIATE",
    "init_command": (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=30000;"
    ),
}

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # Several processes share PostgreSQL: none keeps a connection it is not using.
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = SQLITE_OPTIONS
    # The server does all its database work in one thread (blades/server/handler.py), so
    # its one connection stays open. Closing the last connection to a WAL database checkpoints
    # the log into the file and deletes it: with a connection per request, every request.
    DATABASES["default"]["CONN_MAX_AGE"] = None
    # A file, not shared-cache memory, so threads in concurrency tests lock properly.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("TEST_SQLITE_NAME", str(BASE_DIR / ".test-db.sqlite3"))
    }

# How many frames may wait for one socket. A group_send to a full channel is dropped
# without a word, and the default of 100 loses frames when a burst of pushes outruns a
# socket (tests/reliability/test_ordering.py sends 1,000 at once).
CHANNEL_CAPACITY = 2000
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_READ_TIMEOUT = 15  # seconds; above channels-redis's 5 s wait for a message
REDIS_MAX_CONNECTIONS = 2000  # per process and pool
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "blades.server.channel_layer.RedisChannelLayer",
            # channels-redis waits for a socket's next message with a 5 s BZPOPMIN, and
            # redis-py 8 gives up reading any reply after 5 s by default: a socket idle
            # that long raced the two and failed (closing every socket of the process).
            # A reading timeout past the wait keeps idle sockets open.
            # redis-py 8 fails a command outright once 100 are in flight on a process's
            # pool (MaxConnectionsError), and a failed command closes every socket of the
            # process (sessions/consumers.py): a storm of reconnecting pages, each joining
            # its groups at once, passed 100. Room for a whole process's sockets at once;
            # the connections a storm opens stay pooled for the next.
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": REDIS_READ_TIMEOUT,
                        "max_connections": REDIS_MAX_CONNECTIONS,
                    }
                ],
                "capacity": CHANNEL_CAPACITY,
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "blades.server.channel_layer.InMemoryChannelLayer",
            "CONFIG": {"capacity": CHANNEL_CAPACITY},
        }
    }
    # Every request reads its session. The embedded default is one process, so that
    # process's memory can keep sessions and spare each request a query (written through
    # to the database, which is what survives a restart). Several processes must not:
    # a logout served by one would leave the session alive in the others' memory.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            # Past this, the least recently used third is dropped and read again from the database.
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# SIGNUP_OPEN=0 closes the sign-up to strangers: only someone who opens a live invite
# link can make an account, on the way to joining that table (docs/deployment.md).
SIGNUP_OPEN = env_flag("SIGNUP_OPEN", default=True)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "table_list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
# Adding a language: README, "Adding a language".
LANGUAGES = [("en", "English"), ("es", "Español")]
# The compiled messages (.mo) are built by `make` from the .po files here, never committed.
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Production collects static files (STATIC_MANIFEST=1, see README); otherwise whitenoise
# serves them from the finders and must not be pointed at a folder that does not exist.
STATIC_ROOT = BASE_DIR / "staticfiles" if env_flag("STATIC_MANIFEST") else None
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_flag("STATIC_MANIFEST")
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Without collectstatic (development, tests) whitenoise serves straight from the finders.
WHITENOISE_USE_FINDERS = not env_flag("STATIC_MANIFEST")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Behind a TLS-terminating proxy (see README, "Deploying", and docs/deployment.md).
if env_flag("HTTPS"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# The largest honest form is a page of notes; a bigger body is refused with a 400 before
# any view reads it (a 10,000-character name still arrives, and its form says too long).
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

# Discord webhooks (chronicle/discord.py). Only a webhook on these origins is accepted as a
# table's: the server never posts anywhere a GM's paste could point it (an internal
# address, say). Discord's clients copy webhooks from all four (canary and ptb are its test
# builds). Tests add their loopback server here; production has no variable for it.
DISCORD_WEBHOOK_ORIGINS = (
    "https://discord.com",
    "https://discordapp.com",
    "https://canary.discord.com",
    "https://ptb.discord.com",
)
DISCORD_TIMEOUT = 5  # seconds per attempt
DISCORD_ATTEMPTS = 4
DISCORD_BACKOFF = 1.0  # seconds before the second attempt, doubling after
