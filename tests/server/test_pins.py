"""Pins on the upstream code that blades/server replaces or leans on.

A Django, Channels or asgiref upgrade that changes any of it fails here, naming the
override to re-check (blades/server/__init__.py says what each does and why). After
re-checking, and adapting the override if needed, update the pin to the new code."""

import hashlib
import inspect
import re
import threading
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import NamedTuple

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from channels.consumer import AsyncConsumer
from channels.db import DatabaseSyncToAsync
from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http.request import split_domain_port, validate_host
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from blades.server import hashing
from blades.server.channel_layer import InMemoryChannelLayer
from blades.server.consumer import FramesSkipTheDatabase
from blades.server.handler import OneHopASGIHandler
from sessions.consumers import TableConsumer

HANDLER = "blades/server/handler.py, OneHopASGIHandler"
CONSUMER = "blades/server/consumer.py, FramesSkipTheDatabase.dispatch"
LAYER = "blades/server/channel_layer.py, InMemoryChannelLayer._clean_expired"
ROOT = Path(__file__).resolve().parents[2]
# The packages whose internals blades/server replaces or leans on: each runs at the
# version in requirements.lock (the runtime lock), the one the digests below were taken from.
LEANED_ON = ["Django", "channels", "asgiref", "daphne", "channels-redis", "redis"]


def locked(lock: str = "requirements.lock") -> dict[str, str]:
    """A lock's pins, by canonical name: requirements.lock (what the app runs on) or
    requirements-test.lock (that and the tests' tools)."""
    text = (ROOT / lock).read_text()
    return {
        canonicalize_name(name): pinned
        for name, pinned in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", text, re.MULTILINE)
    }


class Pin(NamedTuple):
    upstream: object
    signature: str
    digest: str  # the first 16 hex digits of the SHA-256 of inspect.getsource(upstream)
    recheck: str


PINS = [
    Pin(ASGIHandler.__init__, "(self)", "41379d4f4b69f900", f"{HANDLER}.__init__"),
    Pin(
        ASGIHandler.__call__,
        "(self, scope, receive, send)",
        "f756809e9c9308dc",
        f"{HANDLER}.__call__",
    ),
    Pin(
        ASGIHandler.handle,
        "(self, scope, receive, send)",
        "98faeb5bef800331",
        f"{HANDLER}.run_get_response (handle must still call it with the request)",
    ),
    Pin(
        ASGIHandler.run_get_response,
        "(self, request)",
        "0234ea5fe09a5777",
        f"{HANDLER}.run_get_response",
    ),
    Pin(
        BaseHandler.load_middleware,
        "(self, is_async=False)",
        "a1fb7ee5f8586195",
        f"{HANDLER}.__init__ (loads the chain with is_async=False)",
    ),
    Pin(AsyncConsumer.dispatch, "(self, message)", "39f34e7d4fb0f655", CONSUMER),
    Pin(
        AsyncConsumer.__call__,
        "(self, scope, receive, send)",
        "e52238720872dbc3",
        f"{CONSUMER} (every message must still come through dispatch)",
    ),
    Pin(
        DatabaseSyncToAsync.thread_handler,
        "(self, loop, *args, **kwargs)",
        "00f86b58c522f98e",
        f"{CONSUMER} (handlers rely on database_sync_to_async closing stale connections)",
    ),
    Pin(StockInMemoryChannelLayer._clean_expired, "(self)", "604032dae1cc01d2", LAYER),
]


def digest(function) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]


@pytest.mark.parametrize("pin", PINS, ids=lambda pin: pin.upstream.__qualname__)
def test_the_upstream_code_an_override_replaces_is_unchanged(pin):
    found = (str(inspect.signature(pin.upstream)), digest(pin.upstream))
    assert found == (pin.signature, pin.digest), (
        f"{pin.upstream.__module__}.{pin.upstream.__qualname__} changed upstream: "
        f"re-check {pin.recheck}, then update this pin"
    )


def test_the_overrides_are_the_ones_in_use():
    assert TableConsumer.dispatch is FramesSkipTheDatabase.dispatch
    assert InMemoryChannelLayer._clean_expired is not StockInMemoryChannelLayer._clean_expired
    assert OneHopASGIHandler.run_get_response is not ASGIHandler.run_get_response


@pytest.mark.asyncio
async def test_password_checks_run_in_their_own_thread():
    """hashing: sync_to_async still takes an executor (blades/server/hashing.py)."""
    assert "executor" in inspect.signature(SyncToAsync.__init__).parameters, (
        "asgiref's sync_to_async lost its executor: re-check blades/server/hashing.py"
    )
    name = await sync_to_async(
        lambda: threading.current_thread().name, thread_sensitive=False, executor=hashing.APART
    )()
    assert name.startswith("passwords")
    assert name != await sync_to_async(lambda: threading.current_thread().name)()


class CountingSweeps(StockInMemoryChannelLayer):
    sweeps = 0

    def _clean_expired(self) -> None:
        self.sweeps += 1
        super()._clean_expired()


@pytest.mark.asyncio
async def test_the_stock_layer_still_sweeps_on_every_receive_and_group_send():
    """channel_layer: what the rationed sweep saves (blades/server/channel_layer.py)."""
    layer = CountingSweeps()
    name = await layer.new_channel()
    await layer.group_add("table-1-players", name)
    await layer.group_send("table-1-players", {"type": "table.fragment", "html": "x"})
    await layer.receive(name)
    assert layer.sweeps == 2, (
        "Channels' in-memory layer sweeps differently now: "
        f"re-check {LAYER} (is the rationing still needed, still enough?)"
    )


def test_the_host_helpers_the_origin_check_leans_on_still_split_and_match():
    """origin: Django's own Host parsing and matching (blades/server/origin.py)."""
    recheck = "re-check blades/server/origin.py (own_origin)"
    assert split_domain_port("[::1]:8000") == ("[::1]", "8000"), recheck
    assert split_domain_port("Example.org") == ("example.org", ""), recheck
    assert validate_host("table.example.org", [".example.org"]), recheck
    assert not validate_host("example.org.evil", ["example.org"]), recheck


@pytest.mark.parametrize(
    ("lock", "extras"), [("requirements.lock", []), ("requirements-test.lock", ["test"])]
)
def test_each_lock_pins_every_declared_dependency_within_its_range(lock, extras):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["dependencies"] + [
        requirement for extra in extras for requirement in project["optional-dependencies"][extra]
    ]
    pins = locked(lock)
    for requirement in map(Requirement, declared):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in {lock}: run `make lock`"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{lock} pins {requirement.name} {pins[name]}, outside "
            f"pyproject.toml's {requirement.specifier}: run `make lock`"
        )


def test_a_production_install_gets_no_test_tool_and_the_tested_versions():
    """`make run` installs requirements.lock alone; the tests ran on requirements-test.lock.
    A test tool may be in the runtime lock only as something an app package needs
    (packaging, say), never for itself."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime, tested = locked(), locked("requirements-test.lock")
    text = (ROOT / "requirements.lock").read_text()
    for requirement in map(Requirement, project["optional-dependencies"]["test"]):
        name = canonicalize_name(requirement.name)
        why = re.search(rf"^{re.escape(name)}==\S+\n((?:    #.*\n)*)", text, re.MULTILINE | re.I)
        assert why is None or "pyproject.toml" not in why.group(1), (
            f"{requirement.name}, a test tool, is in requirements.lock: run `make lock`"
        )
    assert {name: tested.get(name) for name in runtime} == runtime, (
        "requirements-test.lock pins the app's packages differently: run `make lock`"
    )


@pytest.mark.parametrize("package", LEANED_ON)
def test_what_runs_is_the_locked_version(package):
    assert version(package) == locked()[canonicalize_name(package)], (
        f"{package} {version(package)} is installed, requirements.lock pins "
        f"{locked()[canonicalize_name(package)]}: install the lock (`make`), or after "
        "`make lock` re-check the pins above"
    )
