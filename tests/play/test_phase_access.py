"""The phase page and its steps ask one question each of play/access.py: every step the
page hides from a member is refused when they post it anyway, and every step it shows
them is not refused for permission (issue 26)."""

import re

import pytest
from django.db import transaction
from django.urls import NoReverseMatch, reverse

from play import downtime, phases
from play.models import DowntimeActivity, Flashback
from play.steps import STEPS
from sessions import actions
from sessions.models import Clock
from tests.factories import CharacterFactory
from tests.helpers import Dice

HX = {"HX-Request": "true"}
SUBJECTS = ("character_id", "flashback_id", "activity_id")


def play_to(step, table, gm, pc, faction):
    """The loop up to `step`, with a flashback and a downtime activity on the way."""
    if step == "free_play":
        return
    phases.start_score(table=table, plan="stealth", detail="Roof", target_faction=faction)
    phases.call_flashback(table=table, character=pc, stress=1, note="A bribe paid")
    if step == "score":
        return
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(4))
    phases.end_score(table=table)
    if step == "payoff":
        return
    phases.payoff(table=table, size="minor")  # the crew's 4 coin: what its lair keeps
    if step == "heat":
        return
    phases.take_heat(table=table, exposure="contained")
    phases.roll_entanglement(table=table, roller=gm, rng=Dice(6, 6))
    if step == "entanglement":
        return
    phases.resolve_entanglement(table=table, roller=gm, name="Cooperation", choice="avoid")
    actions.create_clock(
        table=table, name="The Hive's plot", segments=4, kind=Clock.Kind.FACTION,
        visibility=Clock.Visibility.EVERYONE,
    )  # fmt: skip
    # Indulging past the stress marked: the overindulgence waits for its choice.
    downtime.indulge_vice(character=pc, roller=pc.owner, rng=Dice(6, 6, 6, 6))
    if step == "activities":
        return
    downtime.end_downtime(table=table)
    downtime.next_session_step(table=table)


def every_step(table):
    """Every step's address at this table, once per scoundrel, flashback or activity."""
    ids = {
        "character_id": list(table.characters.values_list("pk", flat=True)),
        "flashback_id": list(Flashback.objects.values_list("pk", flat=True)),
        "activity_id": list(DowntimeActivity.objects.values_list("pk", flat=True)),
    }
    for name in STEPS:
        for subject in (None, *SUBJECTS):
            for pk in ids[subject] if subject else [None]:
                kwargs = {"table_id": table.pk} | ({subject: pk} if subject else {})
                try:
                    yield reverse(name, kwargs=kwargs)
                except NoReverseMatch:
                    break


def posted(client, url):
    """What a post answers, with nothing it did kept: each step is tried on the same page.
    The block is the test's own, as a test case's is (tests/conftest.py lets those draw)."""
    block = transaction.atomic()
    block._from_testcase = True
    with block:
        status = client.post(url, {}, headers=HX).status_code
        transaction.set_rollback(True)
    return status


@pytest.mark.parametrize(
    "step", ["free_play", "score", "payoff", "heat", "entanglement", "activities", "xp_review"]
)
@pytest.mark.parametrize("viewer", ["gm", "player"])
def test_the_page_shows_the_steps_a_member_may_take_and_no_other(
    client, table, crew, faction, player, other_player, step, viewer
):
    pc = CharacterFactory(table=table, owner=player, name="Cross", stress=2)
    CharacterFactory(table=table, owner=other_player, name="Slane")
    play_to(step, table, table.gm, pc, faction)
    client.force_login(table.gm if viewer == "gm" else player)
    page = client.get(reverse("phase_panel", args=[table.pk])).content.decode()
    shown = set(re.findall(r'\baction="([^"]+)"', page))
    steps = set(every_step(table))
    assert shown <= steps, "a form posts somewhere that is no step"
    for url in sorted(steps):
        status = posted(client, url)
        if url in shown:
            assert status not in (403, 404), f"{url} is shown to the {viewer} but refused"
        else:
            assert status in (403, 422), f"{url} is hidden from the {viewer} but taken"
