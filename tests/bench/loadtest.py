"""The load benchmark: the app against a bare Channels fan-out, same load, same run.

    python -m tests.bench.loadtest                      # 125 tables × 8 sockets, 4-6 minutes
    python -m tests.bench.loadtest --processes 2        # two daphne on PostgreSQL + Redis
    python -m tests.bench.loadtest --processes 2 --split  # one for HTTP, one for sockets

Everything stays on 127.0.0.1. Each side (the app, then tests/bench/fanout.py: daphne,
Channels and group_send with no database, sessions or templates) goes through the same
phases, and the ratios of the two are what the app itself costs:

1. Reconnect storms (`--storms`): every socket opened at once, as pages do when a busy
   process restarts. Timed until the last socket has its snapshot (app) or its accept
   (bare); a handshake without an HTTP answer, or closed before that, is dropped.
2. Load at each of `--rates` (rolls a second across all tables, Poisson arrivals) for
   `--seconds`: push latency from the moment a request is written to the moment each
   socket has the frame, the POST's own time, frames lost, duplicated or reordered (a
   socket seeing a roll before one that was answered before it was sent), and the
   server's CPU per roll (/proc utime + stime over the phase ÷ rolls).
3. Saturation: `--connections` posters per process, each posting again as soon as it is
   answered, for `--saturation-seconds`: the frames per second the sockets receive,
   until the last has come (a backlog still draining counts).

Every socket sends the page's presence ping every 25 s. The servers run with their
pause monitor on (tests/bench/pauses.py): the longest whole-process stop of each phase
and of the run, with its cause. Players are signed in by writing their sessions into the
database (1,000 password hashes would measure the hasher). With `--processes 2` the
sockets and posts are spread over two daphne processes on PostgreSQL and Redis (throwaway
servers from tests/services.py unless DATABASE_URL and REDIS_URL name them), the bare side
on channels-redis likewise, and each phase also reports the cross-process hop: latency to
sockets on the process that took the post against sockets on the other.

The client is one asyncio process and reports its own CPU, so it can be seen not to be
the limit. The last line printed is one JSON object with every figure and ratio. With
`--profile DIR` each server is sampled by py-spy during the storms (their closings
between included) and each load phase, and the time is broken down by stage per socket
and per roll (tests/bench/stages.py); py-spy slows what it samples a little.
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import secrets
import shutil
import string
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.bench import stages
from tests.bench.servers import ROOT, Cluster, Http, Server, pause_figures
from tests.services import postgres, redis

# Long and odd enough that no random token in a fragment (a CSRF token) can contain
# one by chance: a chance match once counted frames twice.
MARKER = re.compile(r"BENCH(\d+)MARK")
PING_SECONDS = 25
SNAPSHOT = 'id="roll-log"'  # in the snapshot (sessions/live.py), never in a roll's push
STORM_TIMEOUT = 60  # seconds a storm's socket may take before it counts as dropped


# --- The client -----------------------------------------------------------------------


async def open_socket(uri: str, headers: list):
    """A websocket as a page opens it (its own origin), without the library's pings: the
    page pings on its own (`ping` below)."""
    return await connect(
        uri,
        origin=f"http://{uri.split('/')[2]}",
        additional_headers=headers,
        compression=None,
        max_size=None,
        ping_interval=None,
        open_timeout=STORM_TIMEOUT,
    )


@dataclass
class Phase:
    """What one phase's rolls did."""

    rolls: int = 0
    http_errors: int = 0
    expected: int = 0
    delivered: int = 0
    duplicates: int = 0
    reordered: int = 0
    latencies: list = field(default_factory=list)
    same_process: list = field(default_factory=list)
    other_process: list = field(default_factory=list)
    posts: list = field(default_factory=list)
    arrivals: list = field(default_factory=list)


@dataclass
class Socket:
    table: dict
    process: int
    uri: str
    headers: list
    ws: object = None
    seen: set = field(default_factory=set)
    latest_sent: float = 0.0  # the latest send time among the rolls this socket has seen


@dataclass
class Roll:
    phase: Phase
    process: int
    sent: float = 0.0
    answered: float | None = None


class Side:
    """One side's run (app or bare): its servers, its sockets, its rolls."""

    def __init__(
        self, cluster: Cluster, tables: list[dict], bare: bool, connections: int, split: bool
    ):
        self.cluster, self.tables, self.bare = cluster, tables, bare
        self.rolls: dict[int, Roll] = {}
        self.seq = 0
        self.csrf = "".join(random.choices(string.ascii_letters + string.digits, k=32))
        servers = cluster.servers
        # Split: every post to the first process, every socket on the last, as a deployment
        # serving HTTP and websockets from processes of their own does; as many posters.
        posted = servers[:1] if split else servers
        pool = connections * len(servers) // len(posted)
        self.http = [Http("127.0.0.1", s.port, pool) for s in posted]
        self.tasks: list[asyncio.Task] = []
        self.sockets: list[Socket] = []
        self.at_table: dict[int, list[Socket]] = {}
        n = 0
        for table in tables:
            for session in table["sessions"]:
                where = len(servers) - 1 if split else n % len(servers)
                server = servers[where]
                if bare:
                    uri, headers = f"ws://{server.url}/ws/t{table['table']}/", []
                else:
                    uri = f"ws://{server.url}/ws/tables/{table['table']}/"
                    headers = [("Cookie", f"sessionid={session}")]
                socket = Socket(table, where, uri, headers)
                self.sockets.append(socket)
                self.at_table.setdefault(table["table"], []).append(socket)
                n += 1

    async def open(self, socket: Socket) -> None:
        socket.ws = await open_socket(socket.uri, socket.headers)
        if not self.bare:
            # A page is whole again once its snapshot (the roll log swapped in whole) is in.
            async with asyncio.timeout(STORM_TIMEOUT):
                while SNAPSHOT not in await socket.ws.recv():
                    pass

    async def storm(self) -> dict:
        """Open every socket at once; time until the last has its snapshot (or accept)."""
        dropped: dict[str, int] = {}
        done: list[float] = []
        start = time.perf_counter()

        async def one(socket: Socket) -> None:
            try:
                await self.open(socket)
                done.append(time.perf_counter() - start)
            except Exception as error:  # noqa: BLE001 - every way a handshake fails counts
                kind = type(error).__name__
                if isinstance(error, InvalidStatus):  # answered, but not with 101
                    kind += f" {error.response.status_code}"
                dropped[kind] = dropped.get(kind, 0) + 1
                if socket.ws is not None:  # accepted, but no snapshot in time
                    await socket.ws.close()
                socket.ws = None

        await asyncio.gather(*(one(socket) for socket in self.sockets))
        return {
            "seconds": round(max(done), 2) if done else None,
            "p50_seconds": round(percentile(done, 0.5), 2) if done else None,
            "opened": len(done),
            "dropped": sum(dropped.values()),
            "dropped_by_error": dropped,
        }

    async def close_sockets(self) -> None:
        await asyncio.gather(*(s.ws.close() for s in self.sockets if s.ws), return_exceptions=True)
        for socket in self.sockets:
            socket.ws = None

    async def reopen_dropped(self) -> int:
        """Sockets a storm dropped, opened again as pages would (a few at a time, backing
        off); how many never opened."""
        gate = asyncio.Semaphore(20)

        async def again(socket: Socket) -> None:
            for attempt in range(5):
                try:
                    async with gate:
                        await self.open(socket)
                    return
                except Exception:  # noqa: BLE001 - any failure is tried again, then counted
                    if socket.ws is not None:
                        await socket.ws.close()
                    socket.ws = None
                    await asyncio.sleep(0.2 * (attempt + 1))

        await asyncio.gather(*(again(s) for s in self.sockets if s.ws is None))
        return sum(1 for socket in self.sockets if socket.ws is None)

    def listen(self) -> None:
        for socket in self.sockets:
            if socket.ws is not None:
                self.tasks.append(asyncio.create_task(self.read(socket)))
                self.tasks.append(asyncio.create_task(self.ping(socket)))

    async def read(self, socket: Socket) -> None:
        with contextlib.suppress(Exception):  # a closed socket ends its reader
            async for frame in socket.ws:
                now = time.perf_counter()
                # A fragment may show the note twice (text and label): count it once.
                for marker in {int(m) for m in MARKER.findall(frame)}:
                    roll = self.rolls.get(marker)
                    if roll is None:
                        continue
                    phase = roll.phase
                    if marker in socket.seen:
                        phase.duplicates += 1
                        continue
                    socket.seen.add(marker)
                    # Out of order: this roll was answered before a roll this socket has
                    # already seen was even sent.
                    if roll.answered is not None and roll.answered < socket.latest_sent:
                        phase.reordered += 1
                    socket.latest_sent = max(socket.latest_sent, roll.sent)
                    latency = now - roll.sent
                    phase.latencies.append(latency)
                    hop = phase.same_process if roll.process == socket.process else None
                    (hop if hop is not None else phase.other_process).append(latency)
                    phase.arrivals.append(now)
                    phase.delivered += 1

    async def ping(self, socket: Socket) -> None:
        # As the page does (table.html): its presence ping, every 25 s, at its own phase.
        with contextlib.suppress(Exception):  # a closed socket ends its pings
            await asyncio.sleep(random.uniform(0, PING_SECONDS))
            while True:
                await socket.ws.send('{"ping": "1"}')
                await asyncio.sleep(PING_SECONDS)

    async def roll(self, phase: Phase) -> None:
        table = random.choice(self.tables)
        session = random.choice(table["sessions"])
        process = random.randrange(len(self.http))
        self.seq += 1
        marker = self.seq
        if self.bare:
            path, body, headers = f"/push/t{table['table']}/BENCH{marker}MARK/", b"", {}
        else:
            path = f"/tables/{table['table']}/rolls/"
            body = f"kind=fortune&pool=2&note=BENCH{marker}MARK".encode()
            headers = {
                "Cookie": f"sessionid={session}; csrftoken={self.csrf}",
                "X-CSRFToken": self.csrf,
                "HX-Request": "true",  # as the page's form sends it
                "Content-Type": "application/x-www-form-urlencoded",
            }
        roll = Roll(phase, process)
        sockets = sum(1 for s in self.at_table[table["table"]] if s.ws is not None)

        def on_send() -> None:
            # Expected from the moment it is sent: a roll whose answer is still on its
            # way when the run stops waiting has still been pushed to every socket.
            roll.sent = time.perf_counter()
            self.rolls[marker] = roll
            phase.rolls += 1
            phase.expected += sockets

        status = await self.http[process].post(path, body, headers, on_send=on_send)
        roll.answered = time.perf_counter()
        if status in (200, 204, 302):
            phase.posts.append(roll.answered - roll.sent)
        else:
            del self.rolls[marker]
            phase.rolls -= 1
            phase.expected -= sockets
            phase.http_errors += 1

    async def load(self, phase: Phase, rate: float, seconds: float) -> float:
        """Rolls at `rate` a second, Poisson arrivals, for `seconds`."""
        pending: set[asyncio.Task] = set()
        start = time.perf_counter()
        at = start
        while (at := at + random.expovariate(rate)) < start + seconds:
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            task = asyncio.create_task(self.roll(phase))
            pending.add(task)
            task.add_done_callback(pending.discard)
        await asyncio.sleep(max(0.0, start + seconds - time.perf_counter()))
        if pending:
            await asyncio.wait(pending, timeout=30)
        return time.perf_counter() - start

    async def saturate(self, phase: Phase, seconds: float) -> float:
        """Every pooled connection posts again as soon as it is answered."""
        deadline = time.perf_counter() + seconds

        async def poster() -> None:
            while time.perf_counter() < deadline:
                await self.roll(phase)

        start = time.perf_counter()
        posters = sum(http.size for http in self.http)
        await asyncio.gather(*(poster() for _ in range(posters)))
        return time.perf_counter() - start

    async def drain(self, phase: Phase, quiet: float = 3, limit: float = 60) -> None:
        """Wait until every expected frame has come, or none has come for `quiet` seconds.

        An overloaded server still has rolls in hand when the load stops: their frames
        are late, not lost, and counting them as lost would blur what a lost frame is."""
        deadline = time.perf_counter() + limit
        last, last_change = phase.delivered, time.perf_counter()
        while time.perf_counter() < deadline and phase.delivered < phase.expected:
            if phase.delivered != last:
                last, last_change = phase.delivered, time.perf_counter()
            elif time.perf_counter() - last_change > quiet:
                return
            await asyncio.sleep(0.1)

    async def close(self) -> None:
        await self.close_sockets()
        for task in self.tasks:
            task.cancel()
        for http in self.http:
            await http.close()


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(value: float) -> float | None:
    # No samples give None: JSON has no NaN.
    return None if value != value else round(1000 * value, 2)


def phase_figures(phase: Phase, elapsed: float, cpu: float, client_cpu: float) -> dict:
    figures = {
        "rolls": phase.rolls,
        "rolls_per_second": round(phase.rolls / elapsed, 1),
        "http_errors": phase.http_errors,
        "p50_ms": ms(percentile(phase.latencies, 0.50)),
        "p95_ms": ms(percentile(phase.latencies, 0.95)),
        "p99_ms": ms(percentile(phase.latencies, 0.99)),
        "max_ms": ms(max(phase.latencies, default=float("nan"))),
        "post_p50_ms": ms(percentile(phase.posts, 0.50)),
        "post_p99_ms": ms(percentile(phase.posts, 0.99)),
        "frames_expected": phase.expected,
        "frames_delivered": phase.delivered,
        "frames_lost": phase.expected - phase.delivered,
        "frames_duplicated": phase.duplicates,
        "frames_reordered": phase.reordered,
        # What one roll costs the server in all (request, write, render, every frame, and
        # the pings meanwhile): the rate one core can sustain is 1000 / this.
        "server_cpu_ms_per_roll": round(1000 * cpu / max(phase.rolls, 1), 2),
        "server_cpu_percent_of_one_core": round(100 * cpu / elapsed, 1),
        "client_cpu_percent_of_one_core": round(100 * client_cpu / elapsed, 1),
    }
    if phase.other_process:
        # Posted to one process, pushed to sockets on it and on the other (split: on the
        # other only).
        figures["other_process_p50_ms"] = ms(percentile(phase.other_process, 0.5))
        figures["other_process_p99_ms"] = ms(percentile(phase.other_process, 0.99))
    if phase.other_process and phase.same_process:
        figures["same_process_p50_ms"] = ms(percentile(phase.same_process, 0.5))
        figures["same_process_p99_ms"] = ms(percentile(phase.same_process, 0.99))
        figures["cross_process_hop_p50_ms"] = round(
            figures["other_process_p50_ms"] - figures["same_process_p50_ms"], 2
        )
    return figures


async def measure(cluster: Cluster, tables: list[dict], args, bare: bool) -> dict:
    side = Side(cluster, tables, bare, args.connections, args.split)
    name_of_side = "bare" if bare else "app"
    result: dict = {"storms": []}
    windows: list[dict] = []
    settled = await cluster.settle()
    await cluster.close_pause_window()  # start-up is not the run
    with cluster.profiled(args.profile, f"{name_of_side}-storms") as profiles:
        for storm in range(args.storms):
            result["storms"].append({**await side.storm(), "settled_before_seconds": settled})
            if storm < args.storms - 1:
                await side.close_sockets()
                settled = await cluster.settle()
    result["sockets_failed"] = await side.reopen_dropped()
    result["sockets"] = sum(1 for s in side.sockets if s.ws is not None)
    side.listen()
    await cluster.settle()
    windows += await cluster.close_pause_window()
    result["storm"] = pause_figures(windows)
    if profiles:
        opened = sum(storm["opened"] for storm in result["storms"])
        result["storm"]["stages_ms_per_socket"] = stages.milliseconds(
            stages.tally(profiles), per=opened
        )
    if args.idle_seconds:
        before = cluster.cpu_seconds()
        await asyncio.sleep(args.idle_seconds)
        result["idle_cpu_percent_of_one_core"] = round(
            100 * (cluster.cpu_seconds() - before) / args.idle_seconds, 2
        )
    for http in side.http:
        await http.open()

    async def run_phase(name: str, drive) -> None:
        phase = Phase()
        await cluster.close_pause_window()
        cpu, client = cluster.cpu_seconds(), time.process_time()
        start = time.perf_counter()
        with cluster.profiled(args.profile, f"{name_of_side}-{name}") as profiles:
            window = await drive(phase)
            await side.drain(phase)
        elapsed = time.perf_counter() - start
        figures = phase_figures(
            phase, elapsed, cluster.cpu_seconds() - cpu, time.process_time() - client
        )
        if name == "saturation":
            # Frames delivered until the last one came: a server that answers posts
            # faster than it sends frames builds a backlog, and counting only what came
            # while the posters ran would charge it for frames it delivers later.
            delivering = max(phase.arrivals, default=start) - start
            figures["seconds"] = round(window, 2)
            figures["frames_per_second"] = round(phase.delivered / max(delivering, window), 1)
        phase_windows = await cluster.close_pause_window()
        windows.extend(phase_windows)
        result[name] = {**figures, **pause_figures(phase_windows)}
        if profiles:
            result[name]["stages_ms_per_roll"] = stages.milliseconds(
                stages.tally(profiles), per=max(figures["rolls"], 1)
            )

    for rate in args.rates:
        await run_phase(
            f"at_{rate:g}_rolls_per_second", lambda p, r=rate: side.load(p, r, args.seconds)
        )
    if args.saturation_seconds:
        await run_phase("saturation", lambda p: side.saturate(p, args.saturation_seconds))
    result["run"] = pause_figures(windows)
    result["server_peak_memory_mb"] = round(cluster.peak_memory_mb(), 1)
    await side.close()
    return result


def ratio(app: float | None, bare: float | None) -> float | None:
    if app is None or not bare or app != app or bare != bare:  # missing, zero or NaN
        return None
    return round(app / bare, 2)


def ratios(app: dict, bare: dict, args) -> dict:
    out = {}
    for rate in args.rates:
        name = f"at_{rate:g}_rolls_per_second"
        for figure in ("p50_ms", "p95_ms", "p99_ms", "post_p99_ms", "server_cpu_ms_per_roll"):
            out[f"{name}_{figure}"] = ratio(app[name][figure], bare[name][figure])
    if args.saturation_seconds:
        out["saturation_frames_per_second"] = ratio(
            app["saturation"]["frames_per_second"], bare["saturation"]["frames_per_second"]
        )
    out["storm_seconds"] = [
        ratio(a["seconds"], b["seconds"])
        for a, b in zip(app["storms"], bare["storms"], strict=True)
    ]
    out["storm_seconds_worst"] = ratio(
        max((s["seconds"] or 0 for s in app["storms"]), default=None),
        max((s["seconds"] or 0 for s in bare["storms"]), default=None),
    )
    out["pause_max_ms"] = ratio(app["run"]["pause_max_ms"], bare["run"]["pause_max_ms"])
    return out


def summary(name: str, side: dict, args) -> list[str]:
    lines = []
    for storm in side["storms"]:
        lines.append(
            f"{name:>5} storm: {storm['opened']} sockets in {storm['seconds']} s, "
            f"{storm['dropped']} dropped {storm['dropped_by_error'] or ''}"
        )
    if "stages_ms_per_socket" in side["storm"]:
        lines += stages.lines(side["storm"]["stages_ms_per_socket"], "socket")
    phases = [f"at_{rate:g}_rolls_per_second" for rate in args.rates]
    for phase in phases + (["saturation"] if args.saturation_seconds else []):
        p = side[phase]
        line = (
            f"{name:>5} {phase}: {p['rolls']} rolls, p50/p95/p99/max "
            f"{p['p50_ms']}/{p['p95_ms']}/{p['p99_ms']}/{p['max_ms']} ms, "
            f"POST p99 {p['post_p99_ms']} ms, lost/dup/reordered {p['frames_lost']}/"
            f"{p['frames_duplicated']}/{p['frames_reordered']}, "
            f"CPU {p['server_cpu_ms_per_roll']} ms/roll, "
            f"pause max {p['pause_max_ms']} ms ({p['pause_max_cause']})"
        )
        if "frames_per_second" in p:
            line += f", {p['frames_per_second']} frames/s"
        if "cross_process_hop_p50_ms" in p:
            line += f", cross-process hop p50 {p['cross_process_hop_p50_ms']} ms"
        lines.append(line)
        if "stages_ms_per_roll" in p:
            lines += stages.lines(p["stages_ms_per_roll"], "roll")
    run = side["run"]
    lines.append(
        f"{name:>5} longest pause of the run: {run['pause_max_ms']} ms "
        f"({run['pause_max_cause']}); over 50 ms: {run['pauses_over_50_ms']}"
    )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=125)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument(
        "--rates",
        type=lambda text: [float(rate) for rate in text.split(",")],
        default=[17.0, 33.0],
        help="rolls a second across all tables, one load phase each (comma-separated)",
    )
    parser.add_argument("--seconds", type=float, default=30, help="of load per rate")
    parser.add_argument("--storms", type=int, default=3)
    parser.add_argument("--saturation-seconds", type=float, default=10)
    parser.add_argument("--idle-seconds", type=float, default=5)
    parser.add_argument("--connections", type=int, default=32, help="HTTP pool per process")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--split",
        action="store_true",
        help="with --processes 2 or more: every post to the first, every socket on the last",
    )
    parser.add_argument("--logs", type=Path, help="keep the servers' logs in this folder")
    parser.add_argument(
        "--profile",
        type=Path,
        help="sample the servers with py-spy in each phase, keep the samples in this folder "
        "and print where the time goes (tests/bench/stages.py)",
    )
    args = parser.parse_args()
    if args.split and args.processes < 2:
        parser.error("--split needs --processes 2 or more")

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        folder = Path(tempfile.mkdtemp(prefix="blades-load-"))
        stack.callback(shutil.rmtree, folder, ignore_errors=True)
        # Kept there if asked: daphne's own log of each process and its pause windows.
        logs = args.logs or folder
        logs.mkdir(parents=True, exist_ok=True)
        if args.profile:
            args.profile.mkdir(parents=True, exist_ok=True)
        env = environment(args.processes, folder, stack)
        results = run(args, env, logs)
    results["wall_seconds"] = round(time.perf_counter() - started, 1)
    for name in ("app", "bare"):
        print("\n".join(summary(name, results[name], args)))
    print(json.dumps(results))
    return 0


def environment(processes: int, folder: Path, stack: contextlib.ExitStack) -> dict:
    """The servers' environment: one process on SQLite (a file in `folder`) and the
    in-memory layer, several on PostgreSQL and Redis (throwaway servers, closed with
    `stack`, unless DATABASE_URL and REDIS_URL name them)."""
    env = {
        **os.environ,
        "SECRET_KEY": secrets.token_urlsafe(40),
        "DEBUG": "0",
        "LOG_LEVEL": "ERROR",
        "DJANGO_SETTINGS_MODULE": "blades.settings",
        "PYTHONPATH": str(ROOT),
    }
    if processes == 1:
        # The embedded default: SQLite and the in-memory layer.
        env["DATABASE_URL"] = f"sqlite:///{folder / 'load.sqlite3'}"
        env.pop("REDIS_URL", None)
    else:
        # Several processes need a shared database and channel layer.
        if not env.get("DATABASE_URL", "").startswith("postgres"):
            env["DATABASE_URL"] = stack.enter_context(postgres())
        if not env.get("REDIS_URL"):
            env["REDIS_URL"] = stack.enter_context(redis())
    return env


def seeded(env: dict, *seed_args: str) -> list[dict]:
    """The database migrated and seeded (tests/bench/seed.py): its tables."""
    quiet = dict(env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input"], **quiet)
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.seed", *seed_args],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)["tables"]


def run(args, env: dict, logs: Path) -> dict:
    tables = seeded(env, str(args.tables), str(args.players))
    results: dict = {
        "tables": args.tables,
        "players": args.players,
        "sockets": args.tables * args.players,
        "processes": args.processes,
        "split": args.split,
        "database": env["DATABASE_URL"].split(":", 1)[0],
        "channel_layer": "redis" if env.get("REDIS_URL") else "in-memory",
        "rates_rolls_per_second": args.rates,
        "seconds": args.seconds,
        "storms": args.storms,
        "saturation_seconds": args.saturation_seconds,
    }
    for name, app in (
        ("app", "tests.bench.app:application"),
        ("bare", "tests.bench.fanout:application"),
    ):
        cluster = Cluster([Server(app, env, logs, f"{name}{n}") for n in range(args.processes)])
        try:
            results[name] = asyncio.run(measure(cluster, tables, args, bare=name == "bare"))
        finally:
            cluster.stop()
    results["ratios"] = ratios(results["app"], results["bare"], args)
    return results


if __name__ == "__main__":
    sys.exit(main())
