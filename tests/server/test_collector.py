"""The server's garbage collector: what starting up made is frozen, templates included."""

import gc

from django.template import engines

import blades.asgi  # noqa: F401 - loading the app is what settles the collector
from blades.server import collector


def test_loading_the_app_freezes_what_it_made_and_sets_the_thresholds():
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == collector.THRESHOLDS


def test_the_project_templates_are_compiled_before_the_freeze():
    # Compiled on first use instead, a template's nodes would be walked by every full
    # collection for the life of the process.
    (partials,) = engines["django"].engine.template_loaders  # template_partials' wrapper
    (loader,) = partials.loaders
    loader.reset()
    collector.compile_templates()
    assert "sessions/table.html" in loader.get_template_cache
