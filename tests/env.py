"""Loaded as a pytest plugin (`-p tests.env`) so it runs before pytest-django reads settings."""

import os
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-not-for-production")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blades.settings")

# pytest-xdist's workers share the one Redis of a PostgreSQL + Redis run, while each has
# a database of its own: two workers' tables share ids, so their channel groups would
# meet. Each worker takes a Redis database of its own (gw0 the first, as without xdist).
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("REDIS_URL"):
    _url = urlsplit(os.environ["REDIS_URL"])
    os.environ["REDIS_URL"] = urlunsplit(_url._replace(path=f"/{int(_worker[2:])}"))
