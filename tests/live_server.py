"""A daphne subprocess on a loopback port, shared by the browser and scale tests."""

import http.client
import os
import secrets
import subprocess
import sys
import tempfile
from urllib.parse import urlencode

import pytest

from tests.services import free_port, wait_for_port


class Daphne:
    """One daphne process on a fixed port, restartable in place: on loopback, or on every
    address (`bind="0.0.0.0"`, as `make run-group`), reached still on loopback."""

    def __init__(
        self,
        database_url: str,
        port: int | None = None,
        redis_url: str | None = None,
        bind: str = "127.0.0.1",
    ):
        self.port = port or free_port()
        self.bind = bind
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "0"}
        if redis_url:
            self.env["REDIS_URL"] = redis_url
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        self.process = None
        # Every request and what the server says (errors, refusals), shown when a test fails.
        descriptor, self.log = tempfile.mkstemp(prefix="blades-daphne-", suffix=".log")
        os.close(descriptor)

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", self.bind, "-p", str(self.port)]
                + ["--websocket_connect_timeout", "30", "--access-log", self.log]
                + ["blades.serve:application"],
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def log_size(self) -> int:
        return os.path.getsize(self.log)

    def log_since(self, offset: int) -> str:
        with open(self.log, "rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace")

    def post(self, client, path: str, data: dict) -> int:
        """POST as the user logged in on a Django test `client`, with a CSRF token."""
        token = secrets.token_hex(16)
        cookie = f"sessionid={client.cookies['sessionid'].value}; csrftoken={token}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        try:
            connection.request(
                "POST",
                path,
                body=urlencode(data),
                headers={
                    "Cookie": cookie,
                    "X-CSRFToken": token,
                    "Content-Type": "application/x-www-form-urlencoded",
                },
            )
            return connection.getresponse().status
        finally:
            connection.close()


def watch_logs(item, *servers: Daphne) -> None:
    """Have a failing test's report show what `servers` logged while it ran."""
    item.daphne_logs = [(server, server.log_size()) for server in servers]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """The suites' conftests import this hook (see `watch_logs`)."""
    report = yield
    if report.failed:
        for server, offset in getattr(item, "daphne_logs", []):
            report.sections.append((f"daphne on port {server.port}", server.log_since(offset)))
    return report
