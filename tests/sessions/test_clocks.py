import pytest
from django.urls import reverse

from sessions import actions
from sessions.models import Clock
from tests.concurrency import post_at_once
from tests.factories import ClockFactory


def clock_url(name, clock):
    return reverse(name, args=[clock.table_id, clock.pk])


def test_gm_creates_a_clock(client, table, gm):
    client.force_login(gm)
    client.post(
        reverse("clock_create", args=[table.pk]),
        {
            "new-clock-name": "Bluecoats",
            "new-clock-segments": 6,
            "new-clock-kind": "danger",
            "new-clock-visibility": "everyone",
        },
    )
    clock = Clock.objects.get()
    assert (clock.name, clock.segments, clock.filled) == ("Bluecoats", 6, 0)


@pytest.mark.parametrize("segments", [1, 13, ""])
def test_clock_size_out_of_range_is_refused(client, table, gm, segments):
    client.force_login(gm)
    response = client.post(
        reverse("clock_create", args=[table.pk]),
        {
            "new-clock-name": "Keep this name",
            "new-clock-segments": segments,
            "new-clock-kind": "danger",
            "new-clock-visibility": "everyone",
        },
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert response.status_code == 422
    assert 'id="id_new-clock-segments_error"' in page
    assert 'value="Keep this name"' in page
    assert not Clock.objects.exists()


def test_player_cannot_touch_the_gms_clocks(client, table, player):
    clock = ClockFactory(table=table)
    client.force_login(player)
    assert client.post(clock_url("clock_tick", clock)).status_code == 403
    assert client.post(clock_url("clock_delete", clock)).status_code == 403
    assert Clock.objects.filter(pk=clock.pk, filled=0).exists()


def test_clock_of_another_table_is_404(client, gm, outsider):
    foreign = ClockFactory()
    client.force_login(gm)
    url = reverse("clock_tick", args=[ClockFactory(table__gm=gm).table_id, foreign.pk])
    assert client.post(url).status_code == 404


def test_tick_and_untick_stay_within_the_clock(table):
    clock = ClockFactory(table=table, segments=2)
    for _ in range(3):
        actions.tick_clock(clock=clock, by=1)
    assert clock.filled == 2
    for _ in range(3):
        actions.tick_clock(clock=clock, by=-1)
    assert clock.filled == 0


def test_resize_keeps_ticks_that_fit(table):
    clock = ClockFactory(table=table, segments=8, filled=7)
    actions.update_clock(clock=clock, name="Smaller", segments=4, kind="racing", visibility="gm")
    clock.refresh_from_db()
    assert (clock.name, clock.segments, clock.filled, clock.kind) == ("Smaller", 4, 4, "racing")


def test_gm_edits_a_clock_through_its_form(client, table, gm):
    clock = ClockFactory(table=table)
    client.force_login(gm)
    prefix = f"clock-{clock.pk}"
    client.post(
        clock_url("clock_update", clock),
        {
            f"{prefix}-name": "Renamed",
            f"{prefix}-segments": 12,
            f"{prefix}-kind": "mission",
            f"{prefix}-visibility": "everyone",
        },
    )
    clock.refresh_from_db()
    assert (clock.name, clock.segments, clock.kind) == ("Renamed", 12, "mission")


def test_gm_deletes_a_clock(client, table, gm):
    clock = ClockFactory(table=table)
    client.force_login(gm)
    client.post(clock_url("clock_delete", clock))
    assert not Clock.objects.exists()


def test_hidden_clock_never_in_a_player_page(client, table, gm, player):
    ClockFactory(table=table, name="Secret plot", visibility="gm")
    ClockFactory(table=table, name="Open threat")
    client.force_login(player)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Open threat" in page and "Secret plot" not in page
    client.force_login(gm)
    assert "Secret plot" in client.get(reverse("table_detail", args=[table.pk])).content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("segments,clicks", [(8, 20), (12, 20)])
def test_concurrent_ticks_lose_nothing_and_never_overfill(segments, clicks):
    from tests.factories import ClockFactory as Factory

    clock = Factory(segments=segments)
    gm = clock.table.gm
    statuses = post_at_once([(gm, clock_url("clock_tick", clock), {"ticks": "1"})] * clicks)
    clock.refresh_from_db()
    assert statuses == [302] * clicks
    assert clock.filled == min(segments, clicks)


@pytest.mark.django_db(transaction=True)
def test_concurrent_mixed_ticks_count_exactly():
    from tests.factories import ClockFactory as Factory

    clock = Factory(segments=12, filled=6)
    gm = clock.table.gm
    moves = [1] * 12 + [-1] * 8
    post_at_once([(gm, clock_url("clock_tick", clock), {"ticks": str(by)}) for by in moves])
    clock.refresh_from_db()
    # Order matters at the edges, so the end value is bounded, never out of range.
    assert 0 <= clock.filled <= 12
    assert clock.filled >= 6 + 12 - 8 - 6  # at most 6 up-ticks can be lost to the cap
