"""`make run` as a newcomer types it: migrate, demo table, daphne; then log in as the GM.

`make smoke` runs this on its own: it takes a slow ~20 s and writes `.secret_key` (and,
on a bare checkout, `.venv`) into the checkout, as `make run` does.
"""

import http.cookiejar
import os
import re
import signal
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.services import free_port

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[2]


def test_make_run_serves_the_demo_table(tmp_path):
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DATABASE_URL", "REDIS_URL"}
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'run.sqlite3'}"
    with open(tmp_path / "run.log", "w") as log:
        server = subprocess.Popen(
            ["make", "--no-print-directory", "run", f"PORT={port}"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        login_page = wait_for_page(opener, f"{base}/accounts/login/", server)
        output = (tmp_path / "run.log").read_text()
        password = re.search(r"^\s*gm / (\S+)$", output, re.MULTILINE).group(1)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page).group(1)
        form = urllib.parse.urlencode(
            {"username": "gm", "password": password, "csrfmiddlewaretoken": token}
        ).encode()
        request = urllib.request.Request(
            f"{base}/accounts/login/", data=form, headers={"Referer": f"{base}/accounts/login/"}
        )
        tables = opener.open(request, timeout=10).read().decode()
        assert "The Crows&#x27; Nest" in tables
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


def wait_for_page(opener, url: str, server, seconds: float = 120) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert server.poll() is None, "make run exited early"
        try:
            return opener.open(url, timeout=5).read().decode()
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"{url} did not answer within {seconds} s")
