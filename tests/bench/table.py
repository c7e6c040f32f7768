"""The README's benchmark table from the JSON lines of several runs (one file each).

    python -m tests.bench.loadtest | tail -1 > run1.json   # three times
    python -m tests.bench.table run1.json run2.json run3.json

Each cell shows every run's figure, then the spread (lowest–highest) where they differ.
"""

import json
import sys
from pathlib import Path


def cell(values: list) -> str:
    shown = ["–" if v is None else f"{v:g}" if isinstance(v, float) else str(v) for v in values]
    numbers = [v for v in values if isinstance(v, int | float)]
    spread = f" ({min(numbers):g}–{max(numbers):g})" if len(set(numbers)) > 1 else ""
    return ", ".join(shown) + spread


def rows(runs: list[dict]) -> list[tuple[str, list, list, list]]:
    def side(name: str, *keys: str) -> list:
        values = []
        for run in runs:
            value = run[name]
            for key in keys:
                value = value.get(key) if isinstance(value, dict) else None
            values.append(value)
        return values

    def ratio(key: str) -> list:
        return [run["ratios"].get(key) for run in runs]

    out = []
    storms = len(runs[0]["app"]["storms"])
    for n in range(storms):
        out.append(
            (
                f"storm {n + 1}: all sockets open in (s)",
                [run["app"]["storms"][n]["seconds"] for run in runs],
                [run["bare"]["storms"][n]["seconds"] for run in runs],
                [run["ratios"]["storm_seconds"][n] for run in runs],
            )
        )
        out.append(
            (
                f"storm {n + 1}: handshakes dropped",
                [run["app"]["storms"][n]["dropped"] for run in runs],
                [run["bare"]["storms"][n]["dropped"] for run in runs],
                [None] * len(runs),
            )
        )
    for rate in runs[0]["rates_rolls_per_second"]:
        phase = f"at_{rate:g}_rolls_per_second"
        figures = [("p50_ms", "p50"), ("p95_ms", "p95"), ("p99_ms", "p99"), ("max_ms", "max")]
        figures += [("post_p99_ms", "POST p99"), ("server_cpu_ms_per_roll", "CPU per roll")]
        for key, label in figures:
            out.append(
                (
                    f"{rate:g} rolls/s: {label} (ms)",
                    side("app", phase, key),
                    side("bare", phase, key),
                    ratio(f"{phase}_{key}"),
                )
            )
        if runs[0]["processes"] > 1:
            for key, label in (
                ("same_process_p50_ms", "p50 same process"),
                ("other_process_p50_ms", "p50 other process"),
                ("cross_process_hop_p50_ms", "cross-process hop p50"),
            ):
                out.append(
                    (
                        f"{rate:g} rolls/s: {label} (ms)",
                        side("app", phase, key),
                        side("bare", phase, key),
                        [None] * len(runs),
                    )
                )
        damage = ("frames_lost", "frames_duplicated", "frames_reordered")
        out.append(
            (
                f"{rate:g} rolls/s: frames lost / duplicated / reordered",
                ["/".join(str(run["app"][phase][k]) for k in damage) for run in runs],
                ["/".join(str(run["bare"][phase][k]) for k in damage) for run in runs],
                [None] * len(runs),
            )
        )
    if "saturation" in runs[0]["app"]:
        out.append(
            (
                "saturation: frames per second",
                side("app", "saturation", "frames_per_second"),
                side("bare", "saturation", "frames_per_second"),
                ratio("saturation_frames_per_second"),
            )
        )
    out.append(
        (
            "longest pause of the run (ms)",
            side("app", "run", "pause_max_ms"),
            side("bare", "run", "pause_max_ms"),
            ratio("pause_max_ms"),
        )
    )
    out.append(
        (
            "its cause",
            side("app", "run", "pause_max_cause"),
            side("bare", "run", "pause_max_cause"),
            [None] * len(runs),
        )
    )
    out.append(
        (
            "peak memory (MB)",
            side("app", "server_peak_memory_mb"),
            side("bare", "server_peak_memory_mb"),
            [None] * len(runs),
        )
    )
    return out


def main(paths: list[str]) -> int:
    runs = [json.loads(Path(path).read_text().splitlines()[-1]) for path in paths]
    print("| figure | app | bare Channels | app ÷ bare |")
    print("| --- | --- | --- | --- |")
    for label, app, bare, ratios in rows(runs):
        ratio_cell = cell(ratios) if any(r is not None for r in ratios) else ""
        print(f"| {label} | {cell(app)} | {cell(bare)} | {ratio_cell} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
