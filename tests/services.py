"""Run a command beside a throwaway PostgreSQL and Redis on free loopback ports.

    python -m tests.services -- pytest tests/scale

Both servers live in a temporary folder and are gone when the command ends. The
command gets DATABASE_URL and REDIS_URL, so Django switches to the scale-out set-up.
"""

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


def postgres_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name)]
    if not found[-1]:
        raise RuntimeError(f"{name} not found: install Debian's postgresql package")
    return found[-1]


def as_postgres_user() -> list[str]:
    # PostgreSQL refuses to run as root; on these machines tests run as root.
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


@contextmanager
def postgres():
    folder = Path(tempfile.mkdtemp(prefix="blades-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        pg = pwd.getpwnam("postgres")
        os.chown(folder, pg.pw_uid, pg.pw_gid)
    port = free_port()
    prefix = as_postgres_user()
    run = dict(check=True, stdout=subprocess.DEVNULL)
    subprocess.run(
        [*prefix, postgres_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "blades"], **run
    )
    options = (
        f"-p {port} -c listen_addresses=127.0.0.1 -k {folder} -c fsync=off -c max_connections=200"
    )
    subprocess.run(
        [
            *prefix,
            postgres_bin("pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(folder / "log"),
            "-w",
            "start",
        ],
        **run,
    )
    try:
        subprocess.run(
            [
                postgres_bin("createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-U",
                "blades",
                "blades",
            ],
            **run,
        )
        yield f"postgres://blades@127.0.0.1:{port}/blades"
    finally:
        subprocess.run(
            [*prefix, postgres_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], **run
        )
        shutil.rmtree(folder, ignore_errors=True)


class Redis:
    """A throwaway redis-server on a fixed loopback port and folder.

    It can be killed like a crash and started again in place, on the same port with the
    same folder: the scale tests take it away under open pages. Nothing is persisted, so
    a restarted server is empty, as the channel layer's state is after a real crash.
    """

    def __init__(self):
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="blades-redis-"))
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def command(self) -> list[str]:
        return [
            "redis-server",
            *("--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)),
            *("--save", "", "--appendonly", "no"),
        ]

    def start(self) -> None:
        self.process = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL)
        wait_for_port(self.port)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def redis():
    server = Redis()
    try:
        server.start()
        yield server.url
    finally:
        server.close()


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        print(__doc__, file=sys.stderr)
        return 2
    command = argv[argv.index("--") + 1 :]
    with postgres() as database_url, redis() as redis_url:
        env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url}
        return subprocess.run(command, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
