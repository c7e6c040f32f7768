"""Stress and trauma marked on the sheet by hand, and the fourth trauma (issue 28)."""

import pytest
from django.urls import reverse

from characters.models import Character
from chronicle import actions as journal_actions
from chronicle.journal import build
from sessions.models import Roll
from tests.factories import CharacterFactory

HTMX = {"HX-Request": "true"}
FOUR = ["cold", "soft", "vicious", "reckless"]


@pytest.fixture
def ada(table, player):
    return CharacterFactory(table=table, owner=player, name="Ada")


def move(client, character, name, data):
    url = reverse("character_move", args=[character.table_id, character.pk, name])
    return client.post(url, data, headers=HTMX)


def fresh(character) -> Character:
    return Character.objects.get(pk=character.pk)


def journal_text(table, is_gm: bool) -> str:
    (journal,) = build(table, is_gm=is_gm)
    return " ".join(line.text for part in journal.parts for line in part.lines)


def test_tapping_the_last_stress_box_is_trauma(client, ada):
    """001 §Trauma: "When a PC marks their last stress box, they suffer a level of trauma"
    ... "When you return, you have zero stress and your vice has been satisfied"."""
    Character.objects.filter(pk=ada.pk).update(stress=4)
    client.force_login(ada.owner)
    page = move(client, ada, "set-stress", {"stress": "9"}).content.decode()
    after = fresh(ada)
    assert (after.stress, after.trauma_pending, after.vice_satisfied) == (0, 1, True)
    assert "Stress overflowed" in page
    move(client, ada, "set-stress", {"stress": "3"})  # a correction is no trauma
    assert (fresh(ada).stress, fresh(ada).trauma_pending) == (3, 1)


def test_the_gm_marks_and_clears_trauma_with_a_reason_in_the_journal(
    client, table, gm, player, ada
):
    """001 §Trauma: "When you take trauma, circle one of your trauma conditions like Cold,
    Reckless, Unstable": the GM may circle one the play gave (or clear one circled by
    mistake) on the sheet, and the journal says why."""
    journal_actions.start_session(table=table, title="By hand")
    client.force_login(player)  # the player may not: trauma by hand is the GM's call
    assert move(client, ada, "trauma-mark", {"condition": "cold", "reason": "x"}).status_code == 403
    client.force_login(gm)
    refused = move(client, ada, "trauma-mark", {"condition": "cold", "reason": ""})
    assert refused.status_code == 422 and "Say why" in refused.content.decode()
    assert fresh(ada).traumas == []
    move(client, ada, "trauma-mark", {"condition": "cold", "reason": "Saw the ghost die"})
    assert fresh(ada).traumas == ["cold"]
    move(client, ada, "trauma-clear", {"condition": "cold", "reason": "Marked on the wrong PC"})
    assert fresh(ada).traumas == []
    text = journal_text(table, is_gm=False)
    assert "Ada took a trauma: Cold (GM: Saw the ghost die)." in text
    assert "Ada is no longer Cold (GM: Marked on the wrong PC)." in text
    page = client.get(reverse("character_sheet", args=[table.pk, ada.pk])).content.decode()
    assert ">Mark trauma</button>" in page
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[table.pk, ada.pk])).content.decode()
    assert ">Mark trauma</button>" not in page


def test_the_fourth_trauma_retires_and_the_sheet_offers_it(client, table, ada):
    """001 §Trauma: "When you mark your fourth trauma condition, your character cannot
    continue as a daring scoundrel. You must retire them"."""
    client.force_login(ada.owner)
    sheet = reverse("character_sheet", args=[table.pk, ada.pk])
    assert "roll-button" in client.get(sheet).content.decode()
    Character.objects.filter(pk=ada.pk).update(traumas=FOUR)
    page = client.get(reverse("character_sheet", args=[table.pk, ada.pk])).content.decode()
    assert "must retire; until then, no more rolls" in page
    assert ">Retire Ada now</button>" in page
    assert "roll-button" not in page  # no way left to start a roll
    move(client, ada, "state", {"state": "retired"})
    assert fresh(ada).state == "retired"


@pytest.mark.parametrize(
    ("move_name", "data"), [("resist", {"attribute": "prowess"}), ("vice", {})]
)
def test_the_sheets_own_rolls_refuse_a_character_who_must_retire(
    client, table, ada, move_name, data
):
    """001 §Trauma: "When you mark your fourth trauma condition, your character cannot
    continue as a daring scoundrel. You must retire them": no resistance or vice roll
    either, on the sheet or by a post."""
    Character.objects.filter(pk=ada.pk).update(traumas=FOUR, stress=3)
    client.force_login(ada.owner)
    page = client.get(reverse("character_sheet", args=[table.pk, ada.pk])).content.decode()
    assert "Resist with" not in page and "Indulge vice" not in page
    refused = move(client, ada, move_name, data)
    assert refused.status_code == 422
    assert "Ada has 4 trauma and must retire: no more rolls." in refused.content.decode()
    assert fresh(ada).stress == 3
    assert not Roll.objects.filter(table=table).exists()
