"""One way to push (issue 13): every fragment is drawn after the commit, from committed
state, by sessions.live.push. (tests/conftest.py fails any test in which a template is
drawn while a transaction is open: that is every action the suite drives.)"""

import pytest
from django.db import transaction

from sessions import actions, live
from tests.factories import TableFactory
from tests.helpers import frames, listen


def test_the_push_helper_refuses_to_draw_inside_a_transaction(
    table, django_capture_on_commit_callbacks
):
    drawn = []
    with django_capture_on_commit_callbacks() as callbacks:
        live.push_to_table(table.pk, lambda: drawn.append(1) or "<p></p>")
    with pytest.raises(live.PushInsideTransaction), transaction.atomic():
        callbacks[0]()
    assert drawn == []


@pytest.mark.django_db(transaction=True)
def test_a_push_shows_the_state_the_transaction_committed():
    """Two ticks in one transaction: both pushes, drawn after the commit, show 2 of 4,
    and a clock hidden before the commit never reaches the players."""
    table = TableFactory()
    clock = actions.create_clock(
        table=table, name="Alarm", segments=4, kind="danger", visibility="everyone"
    )
    # Each channel is drained once: a Redis layer's channel belongs to one event loop.
    gm = listen(table.pk, True)
    with transaction.atomic():
        actions.tick_clock(clock=clock, by=1)
        actions.tick_clock(clock=clock, by=1)
    sent = frames(gm)
    assert len(sent) == 2 and all('"count">2/4<' in f for f in sent), sent
    players = listen(table.pk, False)
    with transaction.atomic():
        actions.tick_clock(clock=clock, by=1)
        actions.update_clock(clock=clock, name="Alarm", segments=4, kind="danger", visibility="gm")
    assert all("Alarm" not in frame for frame in frames(players))
