"""A table without a Discord webhook schedules no relay job: rolls are the busiest write,
and most tables have none (issue 18). Jobs are counted where they are handed to the
worker; none is run."""

import pytest

from blades.rules.rolls import RollKind
from chronicle import discord, relay
from chronicle.models import DiscordHook
from sessions import actions
from tests.factories import ClockFactory, DiscordHookFactory

URL = "https://discord.com/api/webhooks/123456789012345678/AbC-dEf_123"


@pytest.fixture
def jobs(monkeypatch):
    handed = []
    monkeypatch.setattr(discord, "enqueue", handed.append)
    return handed


@pytest.fixture
def roll(table, player, django_capture_on_commit_callbacks):
    def roll_once() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            actions.quick_roll(table=table, roller=player, kind=RollKind.FORTUNE, pool=2)

    return roll_once


def test_a_roll_at_a_table_without_a_webhook_schedules_nothing(table, roll, jobs):
    roll()
    roll()
    assert jobs == []


def test_a_roll_at_a_table_with_a_webhook_schedules_its_job(table, roll, jobs):
    DiscordHookFactory(table=table)
    roll()
    assert len(jobs) == 1


def test_a_hook_with_both_urls_cleared_is_no_webhook(table, roll, jobs):
    DiscordHookFactory(table=table, players_url="", gm_url="")
    roll()
    assert jobs == []


def test_a_filled_clock_schedules_nothing_without_a_webhook(
    table, jobs, django_capture_on_commit_callbacks
):
    clock = ClockFactory(table=table, segments=4, filled=3)
    with django_capture_on_commit_callbacks(execute=True):
        actions.tick_clock(clock=clock, by=1)
    assert jobs == []


def test_a_webhook_the_gm_saves_is_heard_by_the_next_roll(client, table, gm, roll, jobs):
    roll()
    client.force_login(gm)
    response = client.post(f"/tables/{table.pk}/discord/", {"players_url": URL, "gm_url": ""})
    assert response.status_code == 302
    roll()
    assert len(jobs) == 1
    DiscordHook.objects.get(table=table).delete()
    roll()
    assert len(jobs) == 1


def test_a_webhook_saved_by_another_process_is_heard_within_the_bound(
    table, roll, jobs, monkeypatch
):
    roll()
    # Another process's write: this one hears no signal of it.
    DiscordHook.objects.bulk_create([DiscordHook(table=table, players_url=URL)])
    later = relay.monotonic() + relay.HOOKS_FRESH_FOR
    monkeypatch.setattr(relay, "monotonic", lambda: later)
    roll()
    assert len(jobs) == 1
