"""The load benchmark: the app against a bare Channels fan-out, same load, same run.

    python -m tests.bench.loadtest --tables 125 --players 8 --rate 12 --seconds 60

Everything stays on 127.0.0.1 and ends within about `--seconds` × 2 + a minute. The app
runs as one daphne process on a fresh SQLite file (the embedded default). Players are
signed in by writing their sessions into the database (1,000 password hashes would
measure the hasher); each opens the table socket with its session cookie and an Origin
header, and posts quick rolls over HTTP with a CSRF token at `--rate` rolls a minute.
Every roll's note carries a marker; each socket records when it sees it, so latency is
measured from the moment the request is written to the moment each socket has the frame.

Then the same sockets and rolls go to tests/bench/fanout.py: daphne, Channels and
group_send, with no database, sessions or templates. The ratio of the two is what the
app itself costs. The client is one asyncio process (websockets + raw HTTP/1.1 on
keep-alive connections) and reports its own CPU so it can be seen not to be the limit.
The last line printed is one JSON object with all results.
"""

import argparse
import asyncio
import json
import os
import random
import re
import resource
import secrets
import shutil
import statistics
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, InvalidMessage

from tests.services import free_port, wait_for_port

ROOT = Path(__file__).resolve().parents[2]
# Long and odd enough that no random token in a fragment (a CSRF token) can contain
# one by chance: a chance match once counted frames twice.
MARKER = re.compile(r"BENCH(\d+)MARK")
CLOCK_TICK = os.sysconf("SC_CLK_TCK")
PING_SECONDS = 25


# --- The server process -------------------------------------------------------------


class Server:
    def __init__(self, app: str, env: dict, log: Path):
        self.port = free_port()
        self.url = f"127.0.0.1:{self.port}"
        self.log = log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), app],
            env=env,
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, 60)

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICK  # utime + stime

    def peak_memory_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


# --- Seeding the app's database (runs in a child process with Django set up) ----------


def seed(tables: int, players: int) -> dict:
    import django

    django.setup()
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore

    from sessions.models import Membership, Table

    User = get_user_model()
    password = make_password(secrets.token_urlsafe(16))
    users = User.objects.bulk_create(
        [User(username=f"load{n}", password=password) for n in range(tables * (players + 1))]
    )
    out = []
    for t in range(tables):
        gm, *seated = users[t * (players + 1) : (t + 1) * (players + 1)]
        table = Table.objects.create(name=f"Load table {t}", gm=gm)
        Membership.objects.bulk_create(
            [Membership(table=table, user=gm, role="gm")]
            + [Membership(table=table, user=u, role="player") for u in seated]
        )
        sessions = []
        for user in seated:
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            sessions.append(store.session_key)
        out.append({"table": table.pk, "sessions": sessions})
    return {"tables": out}


# --- The client -----------------------------------------------------------------------


class Http:
    """Keep-alive HTTP/1.1 connections, just enough for posting a form."""

    def __init__(self, host: str, port: int, size: int):
        self.host, self.port, self.size = host, port, size
        self.idle: asyncio.Queue = asyncio.Queue()

    async def open(self) -> None:
        for _ in range(self.size):
            self.idle.put_nowait(await asyncio.open_connection(self.host, self.port))

    async def post(self, path: str, body: bytes, headers: dict, on_send=None) -> int:
        reader, writer = await self.idle.get()
        # Latency starts when the request leaves, not while it waits for a pooled
        # connection: that wait is the client's, not the server's.
        if on_send:
            on_send()
        try:
            head = f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            head += f"Content-Length: {len(body)}\r\n\r\n"
            writer.write(head.encode() + body)
            status = int((await reader.readline()).split()[1])
            length, chunked = 0, False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
                elif name.lower() == "transfer-encoding" and "chunked" in value:
                    chunked = True
            if chunked:
                while size := int((await reader.readline()).strip(), 16):
                    await reader.readexactly(size + 2)
                await reader.readline()
            elif length:
                await reader.readexactly(length)
            self.idle.put_nowait((reader, writer))
            return status
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            writer.close()
            self.idle.put_nowait(await asyncio.open_connection(self.host, self.port))
            return 0

    async def close(self) -> None:
        while not self.idle.empty():
            _, writer = self.idle.get_nowait()
            writer.close()


class Run:
    """One load run against one server: sockets, rolls, and what arrived when."""

    def __init__(self, server: Server, tables: list[dict], bare: bool):
        self.server, self.tables, self.bare = server, tables, bare
        self.sent: dict[int, float] = {}  # marker → when the request was written
        self.expected: dict[int, int] = {}  # marker → sockets that should see it
        self.latencies: list[float] = []
        self.delivered = 0
        self.duplicates = 0  # a marker seen again on the same socket
        self.sockets = []
        self.readers = []
        self.http_errors = 0
        self.failed_sockets = 0
        self.seq = 0
        self.csrf = "".join(random.choices(string.ascii_letters + string.digits, k=32))

    async def open_sockets(self) -> None:
        origin = f"http://{self.server.url}"
        jobs = []
        for table in self.tables:
            for session in table["sessions"]:
                if self.bare:
                    uri = f"ws://{self.server.url}/ws/t{table['table']}/"
                    headers = []
                else:
                    uri = f"ws://{self.server.url}/ws/tables/{table['table']}/"
                    headers = [("Cookie", f"sessionid={session}")]
                jobs.append((uri, headers))
        semaphore = asyncio.Semaphore(20)

        async def one(uri, headers):
            # A storm of handshakes can see one dropped by the server; try again, and
            # count what never opened rather than failing the whole run.
            for attempt in range(5):
                try:
                    async with semaphore:
                        socket = await connect(
                            uri,
                            origin=origin,
                            additional_headers=headers,
                            compression=None,
                            max_size=None,
                            ping_interval=None,
                            open_timeout=60,
                        )
                    break
                except (TimeoutError, OSError, InvalidHandshake, InvalidMessage):
                    await asyncio.sleep(0.2 * (attempt + 1))
            else:
                self.failed_sockets += 1
                return
            self.sockets.append(socket)
            self.readers.append(asyncio.create_task(self.read(socket)))
            self.readers.append(asyncio.create_task(self.ping(socket)))

        await asyncio.gather(*(one(uri, headers) for uri, headers in jobs))

    async def read(self, socket) -> None:
        seen: set[int] = set()
        try:
            async for frame in socket:
                now = time.perf_counter()
                # A fragment may show the note twice (text and label): count it once.
                for marker in {int(m) for m in MARKER.findall(frame)}:
                    if marker not in self.sent:
                        continue
                    if marker in seen:
                        self.duplicates += 1
                        continue
                    seen.add(marker)
                    self.latencies.append(now - self.sent[marker])
                    self.delivered += 1
        except Exception:  # noqa: BLE001 - a closed socket ends its reader, nothing more
            return

    async def ping(self, socket) -> None:
        # As the page does (table.html): its presence ping, every 25 s, at its own phase.
        await asyncio.sleep(random.uniform(0, PING_SECONDS))
        try:
            while True:
                await socket.send('{"ping": "1"}')
                await asyncio.sleep(PING_SECONDS)
        except Exception:  # noqa: BLE001 - a closed socket ends its pings, nothing more
            return

    async def roll(self, http: Http, table: dict, session: str) -> None:
        self.seq += 1
        marker = self.seq
        if self.bare:
            path, body, headers = f"/push/t{table['table']}/BENCH{marker}MARK/", b"", {}
        else:
            path = f"/tables/{table['table']}/rolls/"
            body = f"kind=action&pool=2&note=BENCH{marker}MARK".encode()
            headers = {
                "Cookie": f"sessionid={session}; csrftoken={self.csrf}",
                "X-CSRFToken": self.csrf,
                "HX-Request": "true",  # as the page's form sends it
                "Content-Type": "application/x-www-form-urlencoded",
            }

        def on_send() -> None:
            # Expected from the moment it is sent: a roll whose answer is still on its
            # way when the run stops waiting has still been pushed to every socket.
            self.sent[marker] = time.perf_counter()
            self.expected[marker] = len(table["sessions"])

        status = await http.post(path, body, headers, on_send=on_send)
        if status not in (200, 204, 302):
            self.sent.pop(marker, None)
            self.expected.pop(marker, None)
            self.http_errors += 1

    async def load(self, http: Http, rate: float, seconds: float) -> float:
        interval = 60 / rate
        deadline = time.perf_counter() + seconds
        pending: set[asyncio.Task] = set()

        async def player(table, session):
            await asyncio.sleep(random.uniform(0, interval))
            while time.perf_counter() < deadline:
                task = asyncio.create_task(self.roll(http, table, session))
                pending.add(task)
                task.add_done_callback(pending.discard)
                await asyncio.sleep(interval)

        start = time.perf_counter()
        await asyncio.gather(
            *(player(t, s) for t in self.tables for s in t["sessions"]),
        )
        if pending:
            await asyncio.wait(pending, timeout=30)
        return time.perf_counter() - start

    async def drain(self, quiet: float = 3, limit: float = 60) -> None:
        """Wait until every expected frame has come, or none has come for `quiet` seconds.

        An overloaded server still has rolls in hand when the load stops: their frames
        are late, not lost, and counting them as lost would blur what a lost frame is."""
        deadline = time.perf_counter() + limit
        last, last_change = self.delivered, time.perf_counter()
        while time.perf_counter() < deadline:
            if self.delivered >= sum(self.expected.values()):
                return
            if self.delivered != last:
                last, last_change = self.delivered, time.perf_counter()
            elif time.perf_counter() - last_change > quiet:
                return
            await asyncio.sleep(0.2)

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self.sockets), return_exceptions=True)
        for reader in self.readers:
            reader.cancel()


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def measure(server: Server, tables: list[dict], args, bare: bool) -> dict:
    run = Run(server, tables, bare)
    opened = time.perf_counter()
    await run.open_sockets()
    opened = time.perf_counter() - opened
    await asyncio.sleep(3)  # let the connect-time presence pushes settle
    idle_cpu = None
    if not bare and args.idle_seconds:
        before = server.cpu_seconds()
        await asyncio.sleep(args.idle_seconds)
        idle_cpu = 100 * (server.cpu_seconds() - before) / args.idle_seconds
    http = Http("127.0.0.1", server.port, args.connections)
    await http.open()
    cpu_before, client_before = server.cpu_seconds(), time.process_time()
    elapsed = await run.load(http, args.rate, args.seconds)
    await run.drain()
    cpu = server.cpu_seconds() - cpu_before
    client_cpu = time.process_time() - client_before
    expected = sum(run.expected.values())
    result = {
        "sockets": len(run.sockets),
        "sockets_failed": run.failed_sockets,
        "sockets_open_seconds": round(opened, 2),
        "rolls": len(run.expected),
        "http_errors": run.http_errors,
        "frames_expected": expected,
        "frames_delivered": run.delivered,
        "frames_lost": expected - run.delivered,
        "frames_duplicated": run.duplicates,
        "frames_per_second": round(run.delivered / elapsed, 1),
        "p50_ms": round(1000 * percentile(run.latencies, 0.50), 2),
        "p95_ms": round(1000 * percentile(run.latencies, 0.95), 2),
        "p99_ms": round(1000 * percentile(run.latencies, 0.99), 2),
        "max_ms": round(1000 * max(run.latencies, default=float("nan")), 2),
        "mean_ms": round(1000 * statistics.fmean(run.latencies), 2) if run.latencies else None,
        "server_cpu_percent_of_one_core": round(100 * cpu / elapsed, 1),
        # What one roll costs the server in all (request, write, render, every frame):
        # the rate one core can sustain is 1000 / this.
        "server_cpu_ms_per_roll": round(1000 * cpu / max(len(run.expected), 1), 2),
        "server_peak_memory_mb": round(server.peak_memory_mb(), 1),
        "client_cpu_percent_of_one_core": round(100 * client_cpu / elapsed, 1),
    }
    if idle_cpu is not None:
        result["idle_cpu_percent_of_one_core"] = round(idle_cpu, 2)
    await http.close()
    await run.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=125)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--rate", type=float, default=12, help="rolls per player per minute")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--idle-seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=32, help="HTTP keep-alive pool")
    parser.add_argument("--seed", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed:
        print(json.dumps(seed(args.tables, args.players)))
        return 0

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    folder = Path(tempfile.mkdtemp(prefix="blades-load-"))
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'load.sqlite3'}",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "DEBUG": "0",
        "LOG_LEVEL": "ERROR",
        "DJANGO_SETTINGS_MODULE": "blades.settings",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("REDIS_URL", None)
    try:
        quiet = dict(env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input"], **quiet)
        seeded = subprocess.run(
            [sys.executable, "-m", "tests.bench.loadtest", "--seed"]
            + ["--tables", str(args.tables), "--players", str(args.players)],
            env=env,
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        )
        tables = json.loads(seeded.stdout)["tables"]
        app = Server("blades.asgi:application", env, folder / "app.log")
        try:
            app_result = asyncio.run(measure(app, tables, args, bare=False))
        finally:
            app.stop()
        bare = Server("tests.bench.fanout:application", env, folder / "bare.log")
        try:
            bare_result = asyncio.run(measure(bare, tables, args, bare=True))
        finally:
            bare.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    results = {
        "tables": args.tables,
        "players": args.players,
        "rate_per_player_per_minute": args.rate,
        "seconds": args.seconds,
        "app": app_result,
        "bare_channels": bare_result,
        "p50_ratio": round(app_result["p50_ms"] / bare_result["p50_ms"], 2),
        "p95_ratio": round(app_result["p95_ms"] / bare_result["p95_ms"], 2),
        "p99_ratio": round(app_result["p99_ms"] / bare_result["p99_ms"], 2),
    }
    for name in ("app", "bare_channels"):
        r = results[name]
        print(
            f"{name:>14}: {r['sockets']} sockets, {r['rolls']} rolls, "
            f"p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms, p99 {r['p99_ms']} ms, "
            f"max {r['max_ms']} ms, {r['frames_per_second']} frames/s, lost {r['frames_lost']}, "
            f"server CPU {r['server_cpu_percent_of_one_core']}%, "
            f"peak {r['server_peak_memory_mb']} MB"
        )
    print(f"app / bare p95: {results['p95_ratio']}×")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
