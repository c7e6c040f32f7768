"""Fifty clicks at once on one counter: every one counts, none passes the track's limit.

Real threads, real HTTP through Django's test client, each with its own database
connection; run on SQLite by `make test-fast` and on PostgreSQL by `make test-postgres`.
"""

import pytest
from django.urls import reverse

from blades.rules import character as rules
from characters.models import Character
from sessions.models import Clock
from tests.concurrency import post_at_once
from tests.factories import CharacterFactory, ClockFactory

CLICKS = 50
pytestmark = pytest.mark.django_db(transaction=True)


def click_all(user, url: str, payloads: list[dict]) -> list[int]:
    return post_at_once([(user, url, data) for data in payloads])


def test_fifty_ticks_fill_a_clock_exactly_and_never_past_it():
    clock = ClockFactory(segments=12)
    url = reverse("clock_tick", args=[clock.table_id, clock.pk])
    statuses = click_all(clock.table.gm, url, [{"ticks": "1"}] * CLICKS)
    assert statuses == [302] * CLICKS
    assert Clock.objects.get(pk=clock.pk).filled == 12


def test_fifty_unticks_empty_a_clock_and_never_go_below_zero():
    clock = ClockFactory(segments=12, filled=12)
    url = reverse("clock_tick", args=[clock.table_id, clock.pk])
    statuses = click_all(clock.table.gm, url, [{"ticks": "-1"}] * CLICKS)
    assert statuses == [302] * CLICKS
    assert Clock.objects.get(pk=clock.pk).filled == 0


def test_fifty_ticks_on_a_big_clock_all_count():
    # Twelve is the largest clock, so spread fifty ticks over five clocks of a table
    # at once: nothing caps them, so each clock must show exactly its ten.
    first = ClockFactory(segments=12)
    clocks = [first] + [ClockFactory(table=first.table, segments=12) for _ in range(4)]
    gm = first.table.gm
    ticks = clocks * (CLICKS // len(clocks))
    post_at_once(
        [(gm, reverse("clock_tick", args=[c.table_id, c.pk]), {"ticks": "1"}) for c in ticks]
    )
    assert [Clock.objects.get(pk=c.pk).filled for c in clocks] == [10] * 5


def test_fifty_stress_marks_all_count_and_never_reach_nine():
    character = CharacterFactory(stress=0)
    url = reverse("character_move", args=[character.table_id, character.pk, "stress"])
    statuses = click_all(character.owner, url, [{"amount": "1"}] * CLICKS)
    assert statuses == [302] * CLICKS
    after = Character.objects.get(pk=character.pk)
    assert 0 <= after.stress < rules.STRESS_MAX
    # Marking the last box is a trauma and the track starts again (001 §Trauma).
    assert after.trauma_pending * rules.STRESS_MAX + after.stress == CLICKS


def test_fifty_coins_fill_the_purse_and_never_overflow_it():
    character = CharacterFactory(coin=0)
    url = reverse("character_move", args=[character.table_id, character.pk, "coin"])
    statuses = click_all(character.owner, url, [{"amount": "1"}] * CLICKS)
    after = Character.objects.get(pk=character.pk)
    assert after.coin == rules.COIN_MAX
    # The first COIN_MAX clicks land; the rest are refused with a message, not a 500.
    assert statuses.count(302) == rules.COIN_MAX
    assert set(statuses) <= {302, 422}
