"""A daphne subprocess on a loopback port, shared by the browser and scale tests."""

import http.client
import os
import secrets
import subprocess
import sys
from urllib.parse import urlencode

from tests.services import free_port, wait_for_port


class Daphne:
    """One daphne process on a fixed loopback port, restartable in place."""

    def __init__(self, database_url: str, port: int | None = None, redis_url: str | None = None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "0"}
        if redis_url:
            self.env["REDIS_URL"] = redis_url
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        self.process = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
            + ["--websocket_connect_timeout", "30", "blades.asgi:application"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

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
