"""The server's garbage collector: settled by the start-up step, not by importing the app."""

import json
import os
import subprocess
import sys
from pathlib import Path

from django.template import engines

from blades.server import collector

ROOT = Path(__file__).resolve().parents[2]
REPORT = (
    "import gc, json, sys; __import__(sys.argv[1]);"
    " print(json.dumps([gc.get_freeze_count(), gc.get_threshold()]))"
)


def collector_after_importing(module: str) -> tuple[int, tuple[int, ...]]:
    """(objects frozen, thresholds) in a fresh process that imported `module`."""
    out = subprocess.run(
        [sys.executable, "-c", REPORT, module],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    frozen, thresholds = json.loads(out)
    return frozen, tuple(thresholds)


def test_importing_the_application_leaves_the_collector_alone():
    _, python_default = collector_after_importing("gc")
    assert collector_after_importing("blades.asgi") == (0, python_default)


def test_serving_freezes_what_start_up_made_and_sets_the_thresholds():
    frozen, thresholds = collector_after_importing("blades.serve")
    assert frozen > 0
    assert thresholds == collector.THRESHOLDS


def test_the_project_templates_are_compiled_before_the_freeze():
    # Compiled on first use instead, a template's nodes would be walked by every full
    # collection for the life of the process.
    (partials,) = engines["django"].engine.template_loaders  # template_partials' wrapper
    (loader,) = partials.loaders
    loader.reset()
    collector.compile_templates()
    assert "sessions/table.html" in loader.get_template_cache
