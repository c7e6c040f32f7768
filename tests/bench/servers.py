"""What the load benchmark runs and talks to: daphne processes and keep-alive HTTP."""

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.bench import stages
from tests.services import free_port, wait_for_port

ROOT = Path(__file__).resolve().parents[2]
CLOCK_TICK = os.sysconf("SC_CLK_TCK")


class Server:
    """One daphne process, with its pause monitor on (tests/bench/pauses.py)."""

    def __init__(self, app: str, env: dict, folder: Path, name: str):
        self.port = free_port()
        self.url = f"127.0.0.1:{self.port}"
        self.pause_log = folder / f"{name}.pauses.jsonl"
        self.pause_log.unlink(missing_ok=True)  # a kept folder's last run
        self.log = (folder / f"{name}.log").open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
            # As the README runs it (both sides alike): a storm's last handshakes queue.
            + ["--websocket_connect_timeout", "30", app],
            env={**env, "BLADES_PAUSE_LOG": str(self.pause_log)},
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

    def windows(self) -> list[dict]:
        if not self.pause_log.exists():
            return []
        return [json.loads(line) for line in self.pause_log.read_text().splitlines()]

    async def close_pause_window(self) -> dict:
        """The pause figures since the last call (the monitor writes them on SIGUSR1)."""
        before = len(self.windows())
        self.process.send_signal(signal.SIGUSR1)
        deadline = time.perf_counter() + 10
        while len(windows := self.windows()) == before:
            if time.perf_counter() > deadline:
                raise RuntimeError(f"no pause figures from daphne on port {self.port}")
            await asyncio.sleep(0.02)
        return windows[-1]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


class Cluster:
    """The daphne processes of one side (app or bare), measured together."""

    def __init__(self, servers: list[Server]):
        self.servers = servers

    def cpu_seconds(self) -> float:
        return sum(server.cpu_seconds() for server in self.servers)

    def peak_memory_mb(self) -> float:
        return max(server.peak_memory_mb() for server in self.servers)

    async def close_pause_window(self) -> list[dict]:
        return list(await asyncio.gather(*(s.close_pause_window() for s in self.servers)))

    async def settle(self, limit: float = 60) -> float | None:
        """Wait until the servers are near idle again (below a tenth of a core): the
        seconds that took, or None if they never were. A storm on a server still busy
        with the last one measures the last one."""
        start = time.perf_counter()
        while time.perf_counter() < start + limit:
            before = self.cpu_seconds()
            await asyncio.sleep(0.5)
            if self.cpu_seconds() - before < 0.05:
                return round(time.perf_counter() - start, 1)
        return None

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    @contextlib.contextmanager
    def profiled(self, folder: Path | None, name: str):
        """py-spy samples each server while the block runs (tests/bench/stages.py): one
        raw file per server, `{name}-{n}.raw` in `folder`. None: nothing is sampled."""
        if folder is None:
            yield []
            return
        spy = Path(sys.executable).with_name("py-spy")
        if not spy.exists():
            raise SystemExit("--profile needs py-spy: `make test` installs it in .venv")
        files = [folder / f"{name}-{n}.raw" for n in range(len(self.servers))]
        spies = [
            subprocess.Popen(
                [str(spy), "record", "--pid", str(server.process.pid), "--gil", "--native"]
                + ["--threads", "--rate", str(stages.RATE), "--format", "raw"]
                + ["--output", str(path)],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            for server, path in zip(self.servers, files, strict=True)
        ]
        # The phase starts once every server is being sampled: py-spy says so when it is.
        for process in spies:
            if not process.stdout.readline().startswith("py-spy> Sampling"):
                raise SystemExit("py-spy could not sample a server (allowed to ptrace it?)")
        try:
            yield files
        finally:
            for process in spies:
                process.send_signal(signal.SIGINT)  # py-spy writes its file and exits
            for process in spies:
                process.wait(timeout=60)


class Http:
    """Keep-alive HTTP/1.1 connections to one server, just enough for posting a form
    and reading a page."""

    def __init__(self, host: str, port: int, size: int):
        self.host, self.port, self.size = host, port, size
        self.idle: asyncio.Queue = asyncio.Queue()

    async def open(self) -> None:
        for _ in range(self.size):
            self.idle.put_nowait(await asyncio.open_connection(self.host, self.port))

    async def post(self, path: str, body: bytes, headers: dict, on_send=None) -> int:
        return (await self.fetch("POST", path, body, headers, on_send))[0]

    async def fetch(
        self, method: str, path: str, body: bytes, headers: dict, on_send=None
    ) -> tuple[int, bytes]:
        """The answer's status and body (status 0: the connection failed)."""
        reader, writer = await self.idle.get()
        # Latency starts when the request leaves, not while it waits for a pooled
        # connection: that wait is the client's, not the server's.
        if on_send:
            on_send()
        try:
            head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            head += f"Content-Length: {len(body)}\r\n\r\n"
            writer.write(head.encode() + body)
            status = int((await reader.readline()).split()[1])
            length, chunked, content = 0, False, b""
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
                elif name.lower() == "transfer-encoding" and "chunked" in value:
                    chunked = True
            if chunked:
                while size := int((await reader.readline()).strip(), 16):
                    content += (await reader.readexactly(size + 2))[:-2]
                await reader.readline()
            elif length:
                content = await reader.readexactly(length)
            self.idle.put_nowait((reader, writer))
            return status, content
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            writer.close()
            self.idle.put_nowait(await asyncio.open_connection(self.host, self.port))
            return 0, b""

    async def close(self) -> None:
        while not self.idle.empty():
            _, writer = self.idle.get_nowait()
            writer.close()


def pause_figures(windows: list[dict]) -> dict:
    """The longest stop of any process over some pause windows, and what caused it."""
    longest = max(
        (stall for window in windows for stall in window["process"]["longest"]),
        key=lambda stall: stall["ms"],
        default={"ms": 0.0, "cause": "none"},
    )
    by_cause: dict[str, dict] = {}
    for window in windows:
        for why, entry in window["process"]["over_20_ms_by_cause"].items():
            total = by_cause.setdefault(why, {"count": 0, "max_ms": 0.0})
            total["count"] += entry["count"]
            total["max_ms"] = max(total["max_ms"], entry["max_ms"])
    return {
        "pause_max_ms": longest["ms"],
        "pause_max_cause": longest["cause"],
        "pauses_over_20_ms": sum(w["process"]["over_20_ms"] for w in windows),
        "pauses_over_50_ms": sum(w["process"]["over_50_ms"] for w in windows),
        "pauses_over_20_ms_by_cause": by_cause,
        "loop_lag_max_ms": max((w["loop"]["max_ms"] for w in windows), default=0.0),
        "gc_gen2_count": sum(w["gc"]["gen2"]["count"] for w in windows),
        "gc_gen2_max_ms": max((w["gc"]["gen2"]["max_ms"] for w in windows), default=0.0),
    }
