"""Where a server's time goes, stage by stage, from py-spy's samples of its daphne.

    python -m tests.bench.loadtest --profile profiles/   # records, then prints the stages
    python -m tests.bench.stages profiles/app-at_17_rolls_per_second-0.raw --per 510

The load benchmark's `--profile` samples each server with py-spy during each phase,
`--gil`: only the thread holding the interpreter lock, the one resource every stage
of a daphne process takes turns on (SQLite's own work and the password hasher run
without it, on the other core, and are not counted), and `--native`, which shows the
garbage collector at work. Each sample goes to the first stage below whose marker is in
its stack, among those of its thread, so a roll's request, its push and the socket's
frames fall into the steps a roll or a socket takes.
"""

import argparse
from collections import Counter
from pathlib import Path

# py-spy's samples a second; with --gil one thread at a time, so a sample is 1/RATE s.
RATE = 100

DATABASE_THREAD = "ThreadPoolExecutor"  # the process's one thread for sync work
LOOP_THREAD = "MainThread"

# (stage, thread, markers): the first stage of the sample's thread with a marker in it.
STAGES = [
    # The collector runs in whichever thread's allocation set it off, and its pauses would
    # otherwise be charged to that line (py-spy --native shows its frame).
    ("garbage collection", "", ["gc_collect_main ("]),
    ("socket: sign-in and membership", DATABASE_THREAD, ["sessions/seating.py"]),
    ("socket: snapshot", DATABASE_THREAD, ["snapshot ("]),
    ("socket: presence", DATABASE_THREAD, ["presence"]),
    ("request: pushes drawn after the commit", DATABASE_THREAD, ["run_and_clear_commit_hooks"]),
    (
        "request: sign-in (session, user)",
        DATABASE_THREAD,
        # Not auth's decorators: login_required wraps the whole view.
        ["django/contrib/auth/middleware.py", "django/contrib/sessions/"],
    ),
    ("request: table and membership", DATABASE_THREAD, ["access_table ("]),
    ("request: the change (insert, commit)", DATABASE_THREAD, ["/actions.py", "transaction.py"]),
    (
        "request: the rest (middleware, view, form, answer)",
        DATABASE_THREAD,
        ["django/core/handlers/", "blades/server/handler.py"],
    ),
    ("database thread: hand-offs", DATABASE_THREAD, [""]),
    (
        "loop: pushes (channel layer)",
        LOOP_THREAD,
        ["group_send (", "push (tests/bench/fanout.py"],
    ),
    (
        "loop: consumers (connect, frames out)",
        LOOP_THREAD,
        ["consumers.py", "channels/consumer.py", "channels/generic/", "tests/bench/fanout.py"],
    ),
    ("loop: daphne, Twisted, autobahn (HTTP and websocket I/O)", LOOP_THREAD, [""]),
]
OTHER = "other threads (pause monitor, checkpoints)"
ORDER = [name for name, _, _ in STAGES] + [OTHER]


def stage_of(stack: str) -> str:
    thread = stack.split(";", 1)[0]
    for name, thread_name, markers in STAGES:
        if thread_name in thread and any(marker in stack for marker in markers):
            return name
    return OTHER


def tally(paths: list[Path]) -> Counter:
    """Samples per stage, over py-spy's raw files (`stack count` lines, `--threads`)."""
    samples: Counter = Counter()
    for path in paths:
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if stack:
                samples[stage_of(stack)] += int(count)
    return samples


def milliseconds(samples: Counter, per: float) -> dict[str, float]:
    """Each stage's time in ms per unit (a roll, a socket), in the stages' order."""
    return {name: round(samples[name] / RATE * 1000 / per, 2) for name in ORDER if samples[name]}


def lines(stages: dict[str, float], unit: str) -> list[str]:
    rows = {**stages, "holding the interpreter lock, in all": sum(stages.values())}
    width = max(len(name) for name in rows)
    return [f"    {name:<{width}}  {ms:7.2f} ms a {unit}" for name, ms in rows.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("raw", nargs="+", type=Path, help="py-spy record --format raw --threads")
    parser.add_argument("--per", type=float, default=1, help="rolls or sockets the files cover")
    parser.add_argument("--unit", default="roll")
    args = parser.parse_args()
    print("\n".join(lines(milliseconds(tally(args.raw), args.per), args.unit)))


if __name__ == "__main__":
    main()
