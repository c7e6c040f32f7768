"""Undoing a roll by its own changes: counters by their delta, harm entry by entry."""

import pytest

from blades.rules.undo import (
    HarmReversal,
    LadderReversal,
    Reversal,
    ladder_steps,
    reverse_count,
    reverse_harm,
    reverse_ladder,
)


@pytest.mark.parametrize(
    "current,delta,expected",
    [
        (4, 2, Reversal(2, False)),  # nothing changed since: back to the value before
        (5, 2, Reversal(3, False)),  # a later mark survives
        (1, 2, Reversal(0, True)),  # cleared since: stops at the empty end
        (8, -3, Reversal(9, True)),  # the roll cleared stress; the track is full now
        (0, -8, Reversal(8, False)),  # trauma reset stress 8 → 0; back to 8
    ],
)
def test_reverse_count_takes_the_delta_back_within_the_track(current, delta, expected):
    assert reverse_count(current, delta, 0, 9) == expected


def test_ladder_steps_count_a_roll_over_as_a_full_track():
    assert ladder_steps(-7, 1, 9) == 2  # heat 8 → wanted +1, heat 1
    assert ladder_steps(-5, 1, 6) == 1  # xp 5 → an advance, xp 0


@pytest.mark.parametrize(
    "low,high,steps,expected",
    [
        (1, 1, 2, LadderReversal(8, 0, False)),  # unrolls the wanted level it gained
        (2, 1, 2, LadderReversal(0, 1, False)),  # a later heat survives
        (1, 0, 3, LadderReversal(0, 0, True)),  # stops at the bottom
        (8, 4, -1, LadderReversal(8, 4, True)),  # the top of wanted 4 stays full
        (5, 2, 0, LadderReversal(5, 2, False)),
    ],
)
def test_reverse_ladder_moves_back_through_the_roll_over(low, high, steps, expected):
    assert reverse_ladder(low, high, steps, 9, 4) == expected


def test_reverse_ladder_without_a_top_keeps_counting_advances():
    assert reverse_ladder(0, 1, -7, 6) == LadderReversal(1, 2, False)
    assert reverse_ladder(0, 1, 1, 6) == LadderReversal(5, 0, False)


def test_reverse_harm_with_nothing_else_changed_restores_the_rows_exactly():
    before = {1: ("Tired", "Bruised")}
    after = {1: ("Bruised",), 2: ("Cut",)}
    back = reverse_harm(after, before, after)
    assert back == HarmReversal({1: ("Tired", "Bruised"), 2: (), 3: (), 4: ()}, (), ())


def test_reverse_harm_keeps_harm_written_after_the_roll():
    before = {1: ("Tired",)}
    after = {1: ("Tired",), 2: ("Cut",)}
    current = {1: ("Tired",), 2: ("Cut", "Shot")}
    back = reverse_harm(current, before, after)
    assert back == HarmReversal({1: ("Tired",), 2: ("Shot",), 3: (), 4: ()}, (), ())


def test_reverse_harm_takes_the_last_copy_of_a_repeated_entry():
    current = {2: ("Cut", "Cut")}
    back = reverse_harm(current, {}, {2: ("Cut",)})
    assert back.harm[2] == ("Cut",)


def test_reverse_harm_says_what_was_cleared_already_or_no_longer_fits():
    # The roll moved "Tired" off level 1 and wrote "Cut" at level 2; since then the
    # cut was healed and level 1 filled up again.
    before = {1: ("Tired",)}
    after = {2: ("Cut",)}
    current = {1: ("Sore", "Dazed")}
    back = reverse_harm(current, before, after)
    assert back == HarmReversal(
        {1: ("Sore", "Dazed"), 2: (), 3: (), 4: ()}, missing=("Cut",), unplaced=("Tired",)
    )
