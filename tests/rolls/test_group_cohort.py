"""A cohort the leader leads in a group action rolls its quality."""

import re

from django.urls import reverse
from django.utils import translation

from rolls import actions as flow
from rolls import group as flow_group
from sessions.models import Roll
from tests.factories import CohortFactory, CrewFactory
from tests.helpers import Dice, fresh, start

HTMX = {"HX-Request": "true"}


def test_a_cohort_led_in_a_group_action_rolls_its_quality_and_counts_for_the_best(
    client, table, player, ada_m, bo_m, gm_m, ada, bo
):
    """000 §Lead a group action: "You can also lead your crew's cohorts with a group
    action. ... The cohort rolls its quality level"; the leader "takes 1 stress for each
    PC that rolled 1-3"."""
    crew = CrewFactory(table=table, tier=2)
    thugs = CohortFactory(crew=crew, name="Thugs", harm=2)  # impaired: quality 2 − 1d
    broken = CohortFactory(crew=crew, name="Skulks", harm=3)
    roll = flow_group.join_group(by=bo_m, roll=start(ada_m, ada, group=True))
    flow.set_terms(by=gm_m, roll=roll, position="risky", effect=2)
    client.force_login(player)
    panel = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    assert "Roll the cohort's quality" in panel
    url = reverse("flow_step", args=[table.pk, roll.pk, "cohort"])
    refused = client.post(url, {"cohort": broken.pk}, headers=HTMX)
    assert refused.status_code == 422 and "can&#x27;t act" in refused.content.decode()
    roll = flow_group.roll_cohort(by=ada_m, roll=roll, cohort=thugs, rng=Dice(6))
    assert roll.cohorts[str(thugs.pk)]["dice"] == [1, 6]
    roll = flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(2))
    roll = flow_group.roll_dice(by=ada_m, roll=roll, rng=Dice(3, 1))
    assert roll.outcome == "success" and roll.step == "consequences"
    assert fresh(ada).stress == 2  # Bo's 1-3 and her own, not the cohort's
    assert str(roll.log.note) == "Thugs: slip past the guard"


def test_an_elite_cohort_rolls_a_die_more_and_keeps_its_quality(
    client, table, player, ada_m, gm_m, ada
):
    """crew_upgrades.json, Elite Skulks: "+1d to quality rolls for your Skulks cohorts":
    tier 1 Skulks roll 2d in the group action, and the crew sheet keeps them at quality 1
    (the old sheet said 2) beside the upgrade's name."""
    crew = CrewFactory(table=table, tier=1, upgrades={"elite_skulks": 1})
    skulks = CohortFactory(crew=crew, name="Skulks", types=["skulks"])
    CohortFactory(crew=crew, name="Thugs", types=["thugs"])
    client.force_login(player)
    page = client.get(reverse("crew_detail", args=[table.pk])).content.decode()
    assert page.count("quality 1 · scale") == 2 and page.count("Elite Skulks") >= 2
    skulks_line = re.search(rf'<li id="cohort-{skulks.pk}".*?</span>', page, re.S).group(0)
    assert "quality 1 · scale 3-6 · Elite Skulks" in " ".join(skulks_line.split())
    roll = start(ada_m, ada, group=True)
    roll = flow_group.roll_cohort(by=ada_m, roll=roll, cohort=skulks, rng=Dice(2, 5))
    assert roll.cohorts[str(skulks.pk)]["dice"] == [2, 2, 5]


def test_blood_brothers_give_a_led_cohort_1d(table, ada_m, bo_m, gm_m, ada, bo):
    """Blood Brothers (Bravos): "Cohorts fighting beside you get +1d on setups and group
    actions": the Thugs at quality 2 roll 3d when led in a group action."""
    crew = CrewFactory(table=table, tier=2, abilities=["blood_brothers"])
    thugs = CohortFactory(crew=crew, name="Thugs")
    roll = flow_group.join_group(by=bo_m, roll=start(ada_m, ada, group=True))
    roll = flow_group.roll_cohort(by=ada_m, roll=roll, cohort=thugs, rng=Dice(2, 3, 4))
    assert roll.cohorts[str(thugs.pk)]["dice"] == [3, 2, 3, 4]
    assert "(+1d Blood Brothers)" in str(roll.events.last().text)


def test_an_unnamed_cohort_is_named_by_its_type_in_its_readers_language(
    client, table, player, ada_m, ada
):
    """Issue 38: a cohort without a name was kept as its type in the language of whoever
    rolled ("Thugs" in a Spanish log)."""
    crew = CrewFactory(table=table, tier=2)
    cohort = CohortFactory(crew=crew, name="", types=["thugs", "skulks"])
    with translation.override("en"):
        roll = flow_group.roll_cohort(by=ada_m, roll=start(ada_m, ada, group=True),
                                      cohort=cohort, rng=Dice(6, 5))  # fmt: skip
    note = Roll.objects.get(pk=roll.cohorts[str(cohort.pk)]["log"]).note
    text = roll.events.last().text
    with translation.override("es"):
        assert str(note).startswith("Rufianes & Furtivos: ")
        assert str(text).startswith("Rufianes & Furtivos tira su calidad")
    assert str(note).startswith("Thugs & Skulks: ")
    client.force_login(player)
    panel = client.get(reverse("flow_panel", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="es")
    assert "Rufianes &amp; Furtivos (cohorte):" in panel.content.decode()
