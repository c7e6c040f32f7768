"""The pause monitor the load benchmark reads (tests/bench/pauses.py)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.bench import pauses

ROOT = Path(__file__).resolve().parents[2]
CAUSES = {"gc-gen0", "gc-gen1", "gc-gen2", "off-cpu", "other"}

# A process that serves one call on its loop, stops the world with a full collection
# over a large graph, closes a window by signal and exits (closing the last one).
SERVED = textwrap.dedent(
    """
    import asyncio, gc, os, signal, time
    from pathlib import Path
    from tests.bench import pauses

    async def app(scope, receive, send):
        return "served"

    watched = pauses.watch(app)
    log = Path(os.environ["BLADES_PAUSE_LOG"])

    async def main():
        assert await watched({}, None, None) == "served"
        graph = [[object() for _ in range(20)] for _ in range(100_000)]
        gc.collect()
        await asyncio.sleep(0.05)
        os.kill(os.getpid(), signal.SIGUSR1)
        while not log.exists():
            await asyncio.sleep(0.01)
        del graph

    asyncio.run(main())
    """
)


def test_watch_leaves_the_application_alone_when_off(monkeypatch):
    monkeypatch.delenv(pauses.ENV, raising=False)

    async def app(scope, receive, send):
        pass

    assert pauses.watch(app) is app


def test_a_full_collection_is_recorded_as_a_gen2_stall(tmp_path):
    log = tmp_path / "pauses.jsonl"
    subprocess.run(
        [sys.executable, "-c", SERVED],
        env={**os.environ, pauses.ENV: str(log), "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        check=True,
        timeout=60,
    )
    first, last = (json.loads(line) for line in log.read_text().splitlines())
    assert first["gc"]["gen2"]["count"] >= 1
    assert first["gc"]["gen2"]["max_ms"] > 0
    longest = first["process"]["longest"]
    assert longest[0]["ms"] == first["process"]["max_ms"] > 0
    assert {stall["cause"] for stall in longest} <= CAUSES
    assert first["loop"]["samples"] > 0  # the loop was found and probed
    for window in (first, last):
        for kind in ("process", "loop"):
            assert set(window[kind]) >= {"max_ms", "p99_ms", "over_20_ms", "over_50_ms"}


def test_a_stall_is_put_down_to_the_oldest_collection_during_it():
    collections = [(0, 1.00, 1.01), (2, 1.02, 1.20), (1, 1.30, 1.31)]
    assert pauses.cause(collections, 1.05, 1.25, cpu=0.2) == "gc-gen2"
    assert pauses.cause(collections, 1.25, 1.35, cpu=0.1) == "gc-gen1"
    assert pauses.cause(collections, 1.40, 1.50, cpu=0.1) == "other"


def test_a_stall_while_the_process_hardly_ran_is_off_cpu():
    # A busy machine took the cores away: a collection under way then is not the cause.
    assert pauses.cause([(2, 1.0, 1.2)], 1.0, 1.2, cpu=0.05) == "off-cpu"


def test_stopping_while_a_window_closes_still_writes_the_last_window(tmp_path):
    # The process may exit as soon as it sees the closed window's line begin: the monitor
    # then finds both asks at once, and the last window must not be lost.
    monitor = pauses.Monitor(tmp_path / "pauses.jsonl")
    monitor.close_window.set()
    monitor.stopping.set()
    monitor.run()
    assert len(monitor.path.read_text().splitlines()) == 2
