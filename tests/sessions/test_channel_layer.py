"""The embedded layer keeps the stock expiry rules but sweeps at most once a second."""

import pytest

from blades.server import channel_layer
from blades.server.channel_layer import SWEEP_EVERY, InMemoryChannelLayer

pytestmark = pytest.mark.asyncio


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(channel_layer.time, "monotonic", lambda: now[0])
    return now


async def expired_member(layer: InMemoryChannelLayer) -> str:
    """A group member whose queue holds a message that has already expired."""
    name = await layer.new_channel()
    await layer.group_add("table-1-players", name)
    await layer.send(name, {"type": "table.fragment", "html": "old"})
    return name


async def test_an_expired_message_still_drops_its_channel_from_groups(clock):
    layer = InMemoryChannelLayer(expiry=-1)
    name = await expired_member(layer)
    layer._clean_expired()
    assert name not in layer.groups.get("table-1-players", {})


async def test_the_sweep_runs_once_per_interval(clock):
    layer = InMemoryChannelLayer(expiry=-1)
    layer._clean_expired()
    name = await expired_member(layer)
    clock[0] += SWEEP_EVERY / 2
    layer._clean_expired()
    assert name in layer.groups["table-1-players"]
    clock[0] += SWEEP_EVERY
    layer._clean_expired()
    assert name not in layer.groups.get("table-1-players", {})


async def test_group_send_reaches_every_member(clock):
    layer = InMemoryChannelLayer()
    names = [await layer.new_channel() for _ in range(50)]
    for name in names:
        await layer.group_add("table-1-players", name)
    await layer.group_send("table-1-players", {"type": "table.fragment", "html": "x"})
    for name in names:
        assert (await layer.receive(name))["html"] == "x"
