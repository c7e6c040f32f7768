"""Whole-process pauses, measured from inside the server for the load benchmark.

Off unless BLADES_PAUSE_LOG names a file: then `watch(application)` starts a monitor
thread that sleeps 10 ms at a time and records how late it wakes. A thread can only wake
when it gets the GIL, so its lateness is how long the whole process stood still (a full
garbage collection, a C call holding the GIL). The same thread also posts a callback to
the event loop and records how long the loop takes to run it: the loop's lag, which is
what a frame waiting to go out sees. Garbage collections are timed through gc.callbacks,
and each stall is put down to the oldest generation collected during it ("gc-gen2"),
to "off-cpu" if the process hardly ran meanwhile (a busy machine), or to "other".

The figures are written as one JSON line per window: SIGUSR1 closes the current window
(appending its line) and opens the next, and exit closes the last. The benchmark sends
the signal around each phase and reads the lines back (tests/bench/loadtest.py).
"""

import asyncio
import atexit
import gc
import json
import os
import signal
import threading
import time
from collections import deque
from pathlib import Path

ENV = "BLADES_PAUSE_LOG"
# Seconds the monitor sleeps between looks. Stalls are timed exactly whatever the tick;
# a shorter one only costs more wake-ups.
TICK = 0.01
PROBE_EVERY = 2  # ticks between probes of the event loop
# Shorter waits are the GIL's ordinary hand-over (every 5 ms): not worth a cause.
EXPLAIN = 0.005
THRESHOLDS_MS = (20, 50)
LONGEST = 5  # stalls listed one by one in each window


def watch(application):
    """The application unchanged; with BLADES_PAUSE_LOG set, its pauses are recorded."""
    path = os.environ.get(ENV)
    if not path:
        return application
    monitor = Monitor(Path(path))
    monitor.start()

    async def watched(scope, receive, send):
        # The loop exists only once daphne runs the application: the first call finds it.
        if monitor.loop is None:
            monitor.loop = asyncio.get_running_loop()
        return await application(scope, receive, send)

    return watched


class Monitor:
    def __init__(self, path: Path):
        self.path = path
        self.loop = None
        self.collections: deque = deque()  # (generation, start, stop), from any thread
        self.loop_lags: deque = deque()  # (posted, ran), from the loop
        self.gc_started: dict[int, tuple[int, float]] = {}  # thread → (generation, start)
        self.close_window = threading.Event()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, name="pause-monitor", daemon=True)
        self.window = Window()

    def start(self) -> None:
        gc.callbacks.append(self.on_gc)
        signal.signal(signal.SIGUSR1, lambda *_: self.close_window.set())
        atexit.register(self.stop)
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=2)

    def on_gc(self, phase: str, info: dict) -> None:
        now = time.perf_counter()
        if phase == "start":
            self.gc_started[threading.get_ident()] = (info["generation"], now)
        else:
            _, started = self.gc_started.pop(threading.get_ident(), (0, now))
            self.collections.append((info["generation"], started, now))

    def probe(self, posted: float, cpu: float) -> None:
        self.loop_lags.append((posted, cpu, time.perf_counter(), time.process_time()))

    def run(self) -> None:
        recent: list[tuple[int, float, float]] = []  # collections of the last second
        probe_out = False
        ticks = 0
        expected = time.perf_counter() + TICK
        cpu = time.process_time()
        while True:
            time.sleep(TICK)
            now = time.perf_counter()
            ticks += 1
            while self.collections:
                generation, started, stopped = self.collections.popleft()
                recent.append((generation, started, stopped))
                self.window.add_collection(generation, stopped - started)
            if recent and recent[0][2] < now - 1:
                recent = [c for c in recent if c[2] > now - 1]
            late = now - expected
            why = "other"
            if late >= EXPLAIN:
                # The monitor can get the GIL back before the collector's "stop" callback
                # has run: a collection still under way at wake-up counts as ending now.
                running = [(g, began, now) for g, began in list(self.gc_started.values())]
                # The CPU since the sleep began, against the lateness alone: the sleep
                # itself may be idle, a stall of a running process is not.
                used = time.process_time() - cpu
                why = cause(recent + running, expected, now, used)
            self.window.add_stall("process", late, why)
            while self.loop_lags:
                posted, cpu_posted, ran, cpu_ran = self.loop_lags.popleft()
                lag = ran - posted
                why = (
                    cause(recent, posted, ran, cpu_ran - cpu_posted) if lag >= EXPLAIN else "other"
                )
                self.window.add_stall("loop", lag, why)
                probe_out = False
            # Each probe wakes the loop: probing every other tick keeps the monitor's whole
            # cost, paid on both sides of the benchmark, about 1 % of a core (3 % when
            # it woke every 5 ms and probed each time).
            loop = self.loop
            if loop and not probe_out and ticks % PROBE_EVERY == 0 and not loop.is_closed():
                probe_out = True
                loop.call_soon_threadsafe(self.probe, time.perf_counter(), time.process_time())
            if self.close_window.is_set():
                self.close_window.clear()
                self.write()
            # Asked to stop while closing a window (the process exiting as soon as it saw
            # that window's line begin), the last window is still owed its own line.
            if self.stopping.is_set():
                self.write()
                return
            expected = time.perf_counter() + TICK
            cpu = time.process_time()

    def write(self) -> None:
        window, self.window = self.window, Window()
        with self.path.open("a") as out:
            out.write(json.dumps(window.figures()) + "\n")


def cause(collections: list, start: float, end: float, cpu: float) -> str:
    """Why the process stood still from `start` to `end`, having used `cpu` seconds.

    A process that got less than half a core meanwhile was not running at all: the
    machine gave its cores to others ("off-cpu"), whatever it was doing then."""
    if cpu < 0.5 * (end - start):
        return "off-cpu"
    overlapping = [g for g, began, ended in collections if began < end and ended > start]
    return f"gc-gen{max(overlapping)}" if overlapping else "other"


class Window:
    def __init__(self):
        self.started = time.perf_counter()
        self.stalls: dict[str, list[float]] = {"process": [], "loop": []}
        self.longest: dict[str, list[tuple[float, str, float]]] = {"process": [], "loop": []}
        self.by_cause: dict[str, dict[str, dict]] = {"process": {}, "loop": {}}
        self.collections: dict[int, list[float]] = {0: [], 1: [], 2: []}

    def add_collection(self, generation: int, seconds: float) -> None:
        self.collections[generation].append(seconds)

    def add_stall(self, kind: str, seconds: float, why: str) -> None:
        seconds = max(seconds, 0.0)
        self.stalls[kind].append(seconds)
        if seconds * 1000 >= THRESHOLDS_MS[0]:
            entry = self.by_cause[kind].setdefault(why, {"count": 0, "max_ms": 0.0})
            entry["count"] += 1
            entry["max_ms"] = max(entry["max_ms"], round(seconds * 1000, 1))
        longest = self.longest[kind]
        if len(longest) < LONGEST or seconds > longest[-1][0]:
            at = time.perf_counter() - self.started - seconds
            longest.append((seconds, why, at))
            longest.sort(reverse=True)
            del longest[LONGEST:]

    def figures(self) -> dict:
        out: dict = {"seconds": round(time.perf_counter() - self.started, 2)}
        for kind, stalls in self.stalls.items():
            ordered = sorted(stalls)
            figures = {
                "samples": len(ordered),
                "max_ms": round(1000 * ordered[-1], 1) if ordered else 0.0,
                "p99_ms": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 1)
                if ordered
                else 0.0,
            }
            for limit in THRESHOLDS_MS:
                figures[f"over_{limit}_ms"] = sum(1 for s in ordered if s * 1000 > limit)
            figures["over_20_ms_by_cause"] = self.by_cause[kind]
            figures["longest"] = [
                {"ms": round(1000 * s, 1), "cause": why, "at_s": round(at, 2)}
                for s, why, at in self.longest[kind]
            ]
            out[kind] = figures
        out["gc"] = {
            f"gen{generation}": {
                "count": len(times),
                "max_ms": round(1000 * max(times, default=0.0), 1),
                "total_ms": round(1000 * sum(times), 1),
            }
            for generation, times in self.collections.items()
        }
        return out
