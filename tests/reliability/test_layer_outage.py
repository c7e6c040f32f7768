"""A channel layer that cannot be reached (Redis down) does not undo or fail a change.

The change commits and the request answers as usual; the pages that missed the push
catch up from the snapshot their socket receives when it comes back.
"""

import pytest
from django.test import Client
from django.utils.timezone import now

from sessions.models import Clock, Presence, Roll
from tests.factories import ClockFactory, TableFactory
from tests.services import free_port

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def unreachable_layer(settings):
    # channels-redis is only a client: no Redis listens on this port.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]},
        }
    }


def test_a_tick_and_a_roll_commit_and_answer_while_the_layer_is_down(unreachable_layer, caplog):
    table = TableFactory()
    clock = ClockFactory(table=table, segments=4)
    # A page open at the table: the pushes are drawn for it and sent.
    Presence.objects.create(table=table, user=table.gm, channel_name="gm's page", seen=now())
    gm = Client()
    gm.force_login(table.gm)

    tick = gm.post(
        f"/tables/{table.pk}/clocks/{clock.pk}/tick/", {"ticks": 1}, HTTP_HX_REQUEST="true"
    )
    roll = gm.post(
        f"/tables/{table.pk}/rolls/",
        {"kind": "fortune", "pool": 2, "note": "In the dark"},
        HTTP_HX_REQUEST="true",
    )

    assert (tick.status_code, roll.status_code) == (200, 204)
    assert "1 of 4 segments filled" in tick.text
    assert Clock.objects.get(pk=clock.pk).filled == 1
    assert Roll.objects.get().note == "In the dark"
    # The pushes were attempted, and their failure is on record for the host.
    assert "channel layer unreachable" in caplog.text
