"""A flashback's stress cost on the shared roll: one bound with the phase page's."""

from django.urls import reverse

from blades.rules.score import FLASHBACK_STRESS_MAX
from tests.helpers import Dice, fresh, start

HTMX = {"HX-Request": "true"}


def test_the_gm_prices_an_elaborate_flashback_past_3_stress(client, gm, gm_m, ada_m, ada):
    """000 §Flashbacks: "2 (or more) Stress: An elaborate action that involved special
    opportunities or contingencies" (the shared roll refused anything past 3)."""
    from rolls import actions as flow

    roll = start(ada_m, ada, flashback=True)
    client.force_login(gm)
    page = client.get(reverse("flow_panel", args=[roll.table_id])).content.decode()
    assert f'<option value="{FLASHBACK_STRESS_MAX}"' in page
    url = reverse("flow_step", args=[roll.table_id, roll.pk, "terms"])
    data = {"position": "risky", "effect": "2", "flashback_cost": "5"}
    assert client.post(url, data, headers=HTMX).status_code == 200
    flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6))
    assert fresh(ada).stress == 5
    past = {**data, "flashback_cost": str(FLASHBACK_STRESS_MAX + 1)}
    assert client.post(url, past, headers=HTMX).status_code == 422
