"""The journal tells every harm, stress and flashback once and right, whatever path wrote
it to the sheet: a roll, resistance, protection, the GM's undo, downtime (an activity,
the stress of a vice ignored), a flashback called on the phase page. Every path writes
the sheet through characters.actions, whose signal the journal hears; a change a shared
roll's steps tell is told there alone."""

import pytest
from django.utils import translation

from blades.rules.rolls import Effect, Position
from characters.models import Character
from characters.signals import sheet_written
from chronicle import actions as journal_actions
from chronicle.journal import build
from play import downtime, phases
from rolls import actions as roll_actions
from rolls import outcome as roll_outcome
from rolls import undo as roll_undo
from tests.factories import CharacterFactory, CohortFactory
from tests.helpers import Dice, member, to_downtime


@pytest.fixture
def rook(table, player):
    return CharacterFactory(table=table, owner=player, name="Rook", skirmish=2, prowl=1)


@pytest.fixture
def nyx(table, other_player):
    return CharacterFactory(table=table, owner=other_player, name="Nyx", prowl=1)


def told(table) -> list[str]:
    """Every sentence of the GM's journal of the one session: lines and roll steps."""
    [journal] = build(table, is_gm=True)
    lines = [line for part in journal.parts for line in part.lines]
    return [line.text for line in lines] + [step for line in lines for step in line.steps]


def mentions(texts: list[str], words: str) -> int:
    return sum(text.count(words) for text in texts)


def harmed_roll(table, gm, player, rook, **kwargs):
    journal_actions.start_session(table=table)
    return harmed_roll_in_session(table, gm, player, rook, **kwargs)


def harmed_roll_in_session(table, gm, player, rook, *, position="risky", **harm):
    """Rook rolls (push for +1d: 2 stress) and the GM inflicts level 2 harm."""
    roll = roll_actions.start_roll(
        by=member(table, player), character=rook, goal="hold the door", action="skirmish"
    )
    roll = roll_actions.set_terms(
        by=member(table, gm), roll=roll, position=Position(position), effect=Effect.STANDARD
    )
    roll_actions.set_push(by=member(table, player), roll=roll, dice_=True, effect=False)
    roll = roll_actions.roll_dice(by=member(table, player), roll=roll, rng=Dice(2, 3, 1))
    consequence = roll_outcome.add_consequence(
        by=member(table, gm), roll=roll, kind="harm", level=2, description="Stabbed", **harm
    )
    return roll, consequence


def test_a_roll_tells_its_stress_xp_and_harm_once(table, gm, player, rook):
    harmed_roll(table, gm, player, rook, position="desperate")
    texts = told(table)
    assert mentions(texts, "Rook takes 2 stress") == 1
    assert mentions(texts, "Stabbed") == 1
    # the desperate roll's xp, in the roll's steps and nowhere else
    assert mentions(texts, "Rook marks Prowess xp") == 1
    assert mentions(texts, "prowess xp") == 0


def test_resisted_harm_is_told_at_the_level_it_came_to(table, gm, player, rook):
    _, consequence = harmed_roll(table, gm, player, rook, attribute="prowess")
    roll_outcome.resist(by=member(table, player), consequence=consequence, rng=Dice(4, 2))
    roll_outcome.judge_resistance(by=member(table, gm), consequence=consequence, avoided=False)
    texts = told(table)
    assert mentions(texts, "Rook resists with Prowess") == 1
    assert mentions(texts, "GM: Harm reduced") == 1
    # the sheet's own record of the harm (level 2, then level 1) is the roll's to tell
    assert mentions(texts, "suffered level") == 0
    assert mentions(texts, "resistance roll") == 0


def test_protected_harm_is_told_as_the_protectors(table, gm, player, rook, nyx, other_player):
    _, consequence = harmed_roll(table, gm, player, rook)
    roll_outcome.protect(by=member(table, other_player), consequence=consequence)
    texts = told(table)
    assert mentions(texts, "Nyx protects Rook and takes it") == 1
    assert mentions(texts, "Rook suffered") == 0


def test_an_undone_roll_takes_its_sheet_changes_with_it(table, gm, player, rook):
    roll, _ = harmed_roll(table, gm, player, rook, position="desperate")
    roll_outcome.finish(by=member(table, gm), roll=roll)
    roll_undo.undo_last(by=member(table, gm), table=table)
    texts = told(table)
    assert mentions(texts, "The GM undid it.") == 1
    assert mentions(texts, "prowess xp") == 0
    assert mentions(texts, "suffered level") == 0


def test_a_flashback_called_on_the_phase_page_is_told_with_its_stress(table, gm, rook, crew):
    journal_actions.start_session(table=table)
    phases.start_score(table=table, plan="stealth", detail="the roof", target_name="A vault")
    flashback = phases.call_flashback(
        table=table, character=rook, stress=2, note="bribed the guard last week"
    )
    phases.pay_flashback(flashback=flashback)
    texts = told(table)
    assert "Rook: flashback, “bribed the guard last week” (2 stress)." in texts


def test_harm_healed_in_downtime_is_not_told_as_harm_suffered(table, gm, player, rook, crew):
    Character.objects.filter(pk=rook.pk).update(harm={"2": ["Broken ribs"]}, healing=3)
    journal_actions.start_session(table=table)
    to_downtime(table, gm)
    downtime.recover(character=rook, roller=player, healer="npc", quality=2, rng=Dice(6, 1))
    texts = told(table)
    assert Character.objects.get(pk=rook.pk).harm["1"] == ["Broken ribs"]  # a level healed
    assert mentions(texts, "Rook: Recover. Healing clock +3.") == 1
    assert mentions(texts, "Broken ribs") == 0  # healing is no new harm


def test_stress_for_an_ignored_vice_is_told_when_downtime_ends(table, gm, rook, crew):
    """A PC who did not indulge their vice takes stress equal to their traumas when
    downtime ends: no roll or activity tells it, so the sheet's write does, once."""
    Character.objects.filter(pk=rook.pk).update(traumas=["cold"], stress=0)
    journal_actions.start_session(table=table)
    to_downtime(table, gm)
    downtime.end_downtime(table=table)
    assert Character.objects.get(pk=rook.pk).stress == 1
    assert mentions(told(table), "Rook took 1 stress for not indulging their vice.") == 1


def test_every_path_writes_the_sheet_with_its_signal(table, gm, player, rook, nyx, other_player):
    """Protection, resistance and undo move harm on a sheet through the one write, so
    whoever listens (the journal) hears each of them."""
    heard = []

    def hear(sender, character, before, **kwargs):
        if "harm" in before:
            heard.append((character.name, before["harm"], character.harm))

    sheet_written.connect(hear, sender=Character, dispatch_uid="test.heard")
    try:
        roll, consequence = harmed_roll(table, gm, player, rook, attribute="prowess")
        roll_outcome.protect(by=member(table, other_player), consequence=consequence)
        roll_outcome.resist(
            by=member(table, other_player), consequence=consequence, rng=Dice(3, 3, 3, 3)
        )
        roll_outcome.judge_resistance(by=member(table, gm), consequence=consequence, avoided=False)
        roll_outcome.finish(by=member(table, gm), roll=roll)
        roll_undo.undo_last(by=member(table, gm), table=table)
    finally:
        sheet_written.disconnect(dispatch_uid="test.heard", sender=Character)
    stabbed, reduced = {"2": ["Stabbed"]}, {"1": ["Stabbed"]}
    assert [(name, harm_of(b), harm_of(a)) for name, b, a in heard] == [
        ("Rook", {}, stabbed),  # the GM's harm
        ("Rook", stabbed, {}),  # protected: off Rook's sheet
        ("Nyx", {}, stabbed),  # onto Nyx's
        ("Nyx", stabbed, reduced),  # resisted: one level less
        ("Rook", {}, {}),  # undone: what the roll did to Rook, netted out
        ("Nyx", reduced, {}),  # and to Nyx
    ]


def harm_of(harm: dict) -> dict:
    return {str(level): list(entries) for level, entries in (harm or {}).items() if entries}


def test_a_cohort_tended_is_named_in_the_journals_language(table, gm, player, rook, crew):
    """Issue 38: an unnamed cohort was told by its types in the language of whoever tended
    it ("Thugs" in a Spanish journal)."""
    cohort = CohortFactory(crew=crew, name="", types=["thugs"], harm=2)
    journal_actions.start_session(table=table)
    to_downtime(table, gm)
    with translation.override("en"):
        downtime.tend_cohort(character=rook, cohort=cohort)
    table.language = "es"
    table.save(update_fields=["language"])
    texts = told(table)
    assert mentions(texts, "Rook: Atender a una cohorte (Rufianes). Rufianes:") == 1, texts
