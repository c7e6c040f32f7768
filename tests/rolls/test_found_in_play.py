"""What an evening's play found on the roll panel: the harm menu's level by position,
and protect offered back to the one protected."""

import pytest
from django.urls import reverse

from blades.rules.errors import RuleError
from rolls import actions as flow
from rolls import outcome as flow_outcome
from rolls.models import Consequence
from tests.helpers import Dice, start


@pytest.mark.parametrize(
    ("position", "level", "ticks"), [("controlled", 1, 1), ("desperate", 3, 3)]
)
def test_the_gms_harm_card_opens_on_the_level_the_position_calls_for(
    client, table, gm, gm_m, ada_m, ada, position, level, ticks
):
    """Controlled: "you suffer lesser harm" (000 §Controlled); desperate: "Since the
    position was desperate, the GM inflicts severe harm" (001 §Resistance). The
    complication's card likewise opens on a minor's one tick, a serious one's three."""
    roll = flow.set_terms(by=gm_m, roll=start(ada_m, ada), position=position, effect=2)
    flow.roll_dice(by=ada_m, roll=roll, rng=Dice(4, 4))
    client.force_login(gm)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert f'<input type="radio" name="level" value="{level}" checked>' in panel
    assert f'<input type="radio" name="ticks" value="{ticks}" checked>' in panel
    assert panel.count(" checked>") == 2


def test_a_refused_consequence_is_told_on_its_own_card(client, table, gm, gm_m, ada_m, ada):
    """Harm without a description: the message sits on the harm card, nothing changes."""
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(4, 4))
    client.force_login(gm)
    url = reverse("flow_step", args=[table.pk, roll.pk, "consequence"])
    answer = client.post(url, {"kind": "harm", "level": "2"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 422
    page = answer.content.decode()
    harm_card = page[page.index('value="harm"') : page.index('value="complication"')]
    assert "Harm needs a level" in harm_card and page.count('role="alert"') == 1
    assert not Consequence.objects.exists()


def test_the_protected_character_is_not_offered_protect_back(
    client, table, player, other_player, ada_m, bo_m, gm_m, ada, bo
):
    """ "You step in to face a consequence that one of your teammates would otherwise
    face. You suffer it instead of them." (004 §Protect): once Bo has stepped in, Ada no
    longer faces it, so she has nobody to protect from it."""
    roll = flow.roll_dice(by=ada_m, roll=start(ada_m, ada), rng=Dice(1, 1))
    con = flow_outcome.add_consequence(by=gm_m, roll=roll, kind="harm", level=2, description="Cut")
    flow_outcome.protect(by=bo_m, consequence=con)
    client.force_login(player)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert "Protect Bo" not in panel
    with pytest.raises(RuleError, match="not open"):
        flow_outcome.protect(by=ada_m, consequence=Consequence.objects.get(pk=con.pk))
