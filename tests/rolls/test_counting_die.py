"""The counting die is marked wherever dice are drawn: the table page's roll panel drew
2,4,5,3 and 6,6,2 alike (issue 30); the log and the shared screen already marked it."""

import re

import pytest
from django.urls import reverse

from sessions.templatetags.dice_terms import counting_die
from tests.factories import ActionRollFactory, RollFactory

pytestmark = pytest.mark.django_db


def marked(html: str) -> list[str]:
    return re.findall(r'aria-label="(\d) \(counts\)"', html)


@pytest.mark.parametrize(("dice", "counts"), [([2, 4, 5, 3], "5"), ([6, 6, 2], "6")])
def test_the_roll_panel_marks_the_counting_die(client, table, player, ada, dice, counts):
    log = RollFactory(table=table, character=ada, pool=len(dice), dice=dice)
    ActionRollFactory(
        table=table, character=ada, step="consequences", pool=len(dice), dice=dice,
        outcome="partial", log=log,
    )  # fmt: skip
    client.force_login(player)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert marked(panel) == [counts]
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert marked(page) == [counts, counts]  # the panel and the log's line


@pytest.mark.parametrize(
    ("stored", "index"), [([3, 3, 6, 1], 1), ([0, 5, 2], 1), ([1, 4], 0), ([3, 6, 6, 2], 0)]
)
def test_a_stored_pool_and_dice_name_their_counting_die(stored, index):
    """A group's and a resistance's dice are stored [pool, *dice]; a zero pool's lowest counts."""
    assert counting_die(stored) == index
