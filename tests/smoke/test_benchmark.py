"""The load benchmark at a tiny size: it runs end to end and its last line carries every
figure the README's table is filled from (`make smoke`: it takes under a minute)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench import stages

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
                # Bare Channels at saturation posts faster than its sockets read and may
                # fill a channel, which drops frames (a figure it reports, as the app's):
                # the app must lose none, the reference is only measured.
                if (side, phase, damage) == ("bare", "saturation", "frames_lost"):
                    continue
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


def test_the_split_posts_to_one_process_and_pushes_from_the_other():
    """`--split`: HTTP on the first daphne, every socket on the second (throwaway
    PostgreSQL and Redis between them): each roll crosses, and none is lost."""
    command = [sys.executable, "-m", "tests.bench.loadtest", "--tables", "2", "--players", "2"]
    command += ["--seconds", "2", "--storms", "1", "--saturation-seconds", "0"]
    command += ["--idle-seconds", "0", "--rates", "17", "--processes", "2", "--split"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.splitlines()[-1])
    assert (results["split"], results["database"]) == (True, "postgres")
    for side in ("app", "bare"):
        phase = results[side]["at_17_rolls_per_second"]
        assert phase["rolls"] > 0 and phase["frames_lost"] == 0
        # Every frame crossed from the process that took the post to the other.
        assert phase["other_process_p50_ms"] > 0 and "same_process_p50_ms" not in phase


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


def test_the_panel_cpu_measure_reads_the_panel_for_the_gm_and_a_player():
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.panelcpu", "--finished", "3", "--reads", "2"]
        + ["--warmup", "1", "--rounds", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["GM", "GM", "player", "player"], lines
    assert lines[-1].startswith("player: lowest ") and lines[-1].endswith(" bytes"), lines


def test_the_profile_breaks_each_phase_down_by_stage(tmp_path):
    folder = tmp_path / "profiles"
    command = [sys.executable, "-m", "tests.bench.loadtest", "--tables", "2", "--players", "2"]
    command += ["--rates", "17", "--seconds", "3", "--storms", "1", "--saturation-seconds", "0"]
    command += ["--idle-seconds", "0", "--profile", str(folder)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.splitlines()[-1])
    for side in ("app", "bare"):
        assert (folder / f"{side}-storms-0.raw").exists()
        assert (folder / f"{side}-at_17_rolls_per_second-0.raw").exists()
        roll = results[side]["at_17_rolls_per_second"]["stages_ms_per_roll"]
        assert set(roll) <= set(stages.ORDER) and sum(roll.values()) > 0, (side, roll)
        assert set(results[side]["storm"]["stages_ms_per_socket"]) <= set(stages.ORDER)
    # Only the app has a request to break down.
    app = results["app"]["at_17_rolls_per_second"]["stages_ms_per_roll"]
    assert any(stage.startswith("request: ") for stage in app), app
    assert "ms a roll" in done.stdout and "ms a socket" in done.stdout


DATABASE = "thread (2): ThreadPoolExecutor-0_0;run (asgiref/sync.py:1)"
LOOP = "thread (1): MainThread;run_forever (asyncio/base_events.py:1)"


@pytest.mark.parametrize(
    ("stack", "stage"),
    [
        (
            DATABASE + ";seat_all (sessions/seating.py:1);get_user (django/contrib/auth/a.py:1)",
            "socket: sign-in and membership",
        ),
        (
            DATABASE + ";begin (sessions/shared.py:1);party_snapshot (characters/live.py:1)",
            "socket: snapshot",
        ),
        (
            DATABASE
            + ";_view_wrapper (django/contrib/auth/decorators.py:1)"
            + ";<lambda> (django/contrib/auth/middleware.py:1)"
            + ";get_user (django/contrib/auth/a.py:1)",
            "request: sign-in (session, user)",
        ),
        (
            DATABASE
            + ";_view_wrapper (django/contrib/auth/decorators.py:1)"
            + ";access_table (sessions/access.py:1)",
            "request: table and membership",
        ),
        (
            DATABASE
            + ";quick_roll (sessions/actions.py:1);__exit__ (django/db/transaction.py:1)"
            + ";run_and_clear_commit_hooks (django/db/backends/base/base.py:1)",
            "request: pushes drawn after the commit",
        ),
        (DATABASE + ";thread_handler (asgiref/sync.py:1)", "database thread: hand-offs"),
        (
            LOOP + ";main (asgiref/sync.py:1);group_send (channels/layers.py:1)",
            "loop: pushes (channel layer)",
        ),
        (
            LOOP + ";dataReceived (twisted/web/http.py:1)",
            "loop: daphne, Twisted, autobahn (HTTP and websocket I/O)",
        ),
        ("thread (3): pause-monitor;run (tests/bench/pauses.py:1)", stages.OTHER),
        (
            DATABASE + ";access_table (sessions/access.py:1);gc_collect_main (libpython3.11.so)",
            "garbage collection",
        ),
    ],
)
def test_a_sample_goes_to_the_first_stage_of_its_thread(stack, stage):
    assert stages.stage_of(stack) == stage


def test_stages_are_given_in_ms_per_roll(tmp_path):
    raw = tmp_path / "app.raw"
    raw.write_text(f"{DATABASE};access_table (sessions/access.py:1) 50\n{LOOP} 25\n{LOOP} 5\n")
    # 50 samples at 100 a second are half a second; over 10 rolls, 50 ms each.
    assert stages.milliseconds(stages.tally([raw]), per=10) == {
        "request: table and membership": 50.0,
        "loop: daphne, Twisted, autobahn (HTTP and websocket I/O)": 30.0,
    }


# Every kind of step an evening takes, the resistance to harm aside (a 6 leaves none).
EVENING_STEPS = {
    "propose", "GM's call", "assist", "push", "roll", "consequence", "close", "sheet tap",
    "clock tick", "quick roll", "group: join", "group: roll", "socket reopened", "score",
    "downtime", "journal",
}  # fmt: skip
EVENING_PAGES = {
    "table page (GM)", "table page (player)", "sheet page", "journal page", "phase panel",
    "flow panel (after a signal)", "table page (GM), an evening behind",
    "table page (player), an evening behind", "flow panel (GM), an evening behind",
    "flow panel (player), an evening behind",
}  # fmt: skip
# Steps the script tries whatever the dice said: refused when a 6 left nothing to inflict.
DICE_DECIDED = {"consequence", "resistance"}
# Read by several pages at once: its CPU is in the step that signalled it.
SHARED = "flow panel (after a signal)"


def test_the_evening_benchmark_plays_every_step_and_prints_its_figures():
    """`tests/bench/evening.py` at a tiny size: one table at 30× a real table's pace for a
    few seconds, one more playing a whole evening alone, bare Channels replaying it."""
    command = [sys.executable, "-m", "tests.bench.evening", "--tables", "1", "--pace", "30"]
    command += ["--seconds", "5", "--solo-evenings", "1", "--page-reads", "1"]
    # Its one table starts on an action roll: begun on the journal (one start in eight),
    # its five seconds pushed nothing, and bare Channels had nothing to replay.
    command += ["--start", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.splitlines()[-1])
    app, bare, verdict = results["app"], results["bare"], results["verdict"]
    assert set(app["steps"]) >= EVENING_STEPS and set(app["pages"]) >= EVENING_PAGES
    assert app["play"]["blocks_broken"] == 0
    for kind, figures in {**app["steps"], **app["pages"]}.items():
        assert figures["errors"] == 0, kind
        if not figures["count"]:
            # Only the dice leave a step unplayed: a 6 leaves nothing to inflict, and with
            # four dice a roll has it one time in two, so a tiny run may see only refusals.
            assert kind in DICE_DECIDED and figures["refused"], kind
            continue
        assert ("cpu_ms" in figures) == (kind != SHARED), kind
    for kind, figures in app["steps"].items():
        # Timed to the frame at every socket: all but the journal, which pushes nothing
        # (a reopened socket to its snapshot). A kind the run only saw refused has none,
        # nor has one whose few steps each waited for a frame a socket was rightly not
        # sent (see below: a tiny run may see a clock tick once).
        if figures["count"] and not figures["frames_lost"]:
            assert ("p95_ms" in figures) == (kind != "journal"), kind
    # Not frames_lost: the script still waits for a frame at every socket after each step,
    # and since issue 35 a push is not sent to an audience whose view did not change (a
    # veiled clock's tick, say), so some awaited frames are rightly never sent. Issue 36
    # stays open for the script to learn which sockets each step reaches.
    assert verdict["frames_duplicated"] == 0
    assert verdict["frames_reordered"] == 0 and verdict["bare_frames_lost"] == 0
    # Bare Channels replayed the played table's pushed steps, each beside the app's.
    assert set(bare["steps"]) and set(bare["steps"]) <= set(app["steps"])
    assert all(verdict["p95_ratio_to_bare"][kind] for kind in bare["steps"])
    assert verdict["tables_per_core"] > 0 and app["cpu_seconds_per_table_hour"] > 0
    assert app["memory_mb_per_table"] >= 0 and results["killed_after_answer"] == 0
