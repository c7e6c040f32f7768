"""The load benchmark at a tiny size: it runs end to end and its last line carries every
figure the README's table is filled from (`make smoke`: it takes under a minute)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.smoke

ROOT = Path(__file__).resolve().parents[2]

PHASES = ("at_17_rolls_per_second", "at_33_rolls_per_second", "saturation")
PHASE_FIGURES = {
    "rolls",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "max_ms",
    "post_p99_ms",
    "frames_lost",
    "frames_duplicated",
    "frames_reordered",
    "server_cpu_ms_per_roll",
    "pause_max_ms",
    "pause_max_cause",
}
RATIOS = {
    "at_17_rolls_per_second_p95_ms",
    "at_17_rolls_per_second_p99_ms",
    "at_17_rolls_per_second_server_cpu_ms_per_roll",
    "at_33_rolls_per_second_p95_ms",
    "at_33_rolls_per_second_p99_ms",
    "at_33_rolls_per_second_server_cpu_ms_per_roll",
    "saturation_frames_per_second",
    "storm_seconds",
    "storm_seconds_worst",
}


def test_the_benchmark_prints_every_figure_and_ratio(tmp_path):
    command = [sys.executable, "-m", "tests.bench.loadtest", "--tables", "2", "--players", "2"]
    command += ["--seconds", "2", "--storms", "1", "--saturation-seconds", "1"]
    command += ["--idle-seconds", "0"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.splitlines()[-1])
    for side in ("app", "bare"):
        figures = results[side]
        assert figures["sockets"] == 4
        (storm,) = figures["storms"]
        assert storm["opened"] == 4 and storm["dropped"] == 0
        assert storm["seconds"] > 0
        assert figures["run"]["pause_max_ms"] > 0
        for phase in PHASES:
            assert set(figures[phase]) >= PHASE_FIGURES, (side, phase)
            assert figures[phase]["rolls"] > 0
            assert figures[phase]["http_errors"] == 0
            for damage in ("frames_lost", "frames_duplicated", "frames_reordered"):
                assert figures[phase][damage] == 0, (side, phase, damage)
        assert figures["saturation"]["frames_per_second"] > 0
    assert set(results["ratios"]) >= RATIOS
    assert all(value is not None for value in results["ratios"].values())

    # The README's table, from two runs' lines (the same one twice here).
    line = tmp_path / "run.json"
    line.write_text(done.stdout.splitlines()[-1])
    table = subprocess.run(
        [sys.executable, "-m", "tests.bench.table", str(line), str(line)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "| saturation: frames per second |" in table
    assert "| 33 rolls/s: p99 (ms) |" in table


@pytest.mark.parametrize("kind", [[], ["--action"]], ids=["quick", "action"])
def test_the_roll_cpu_measure_runs_and_every_socket_gets_each_roll(kind):
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.rollcpu", "--rolls", "5", "--warmup", "2"]
        + ["--rounds", "1", *kind],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    first, last = done.stdout.splitlines()
    assert first.endswith(", 8 frames per roll"), first
    assert last.startswith("lowest ") and last.endswith(" ms CPU per roll"), last
