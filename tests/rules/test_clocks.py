import pytest

from blades.rules.character import RuleError
from blades.rules.clocks import (
    CLOCK_MAX,
    CLOCK_MIN,
    check_links,
    check_setup,
    check_tick,
    is_full,
    is_locked,
    validate_clock_size,
)


def test_constants():
    assert (CLOCK_MIN, CLOCK_MAX) == (2, 12)


@pytest.mark.parametrize("segments", [2, 3, 4, 6, 8, 12])
def test_valid_sizes(segments):
    assert validate_clock_size(segments) == segments


@pytest.mark.parametrize("segments", [-4, 0, 1, 13])
def test_invalid_sizes(segments):
    with pytest.raises(RuleError, match="A clock has 2 to 12 segments"):
        validate_clock_size(segments)


def test_full_means_every_segment():
    assert is_full(4, 4) and is_full(5, 4)
    assert not is_full(3, 4)


@pytest.mark.parametrize(
    ("unlocked_by", "locked"),
    [
        ([], False),  # no clock unlocks it: open from the start
        ([(4, 4)], False),
        ([(3, 4)], True),
        ([(4, 4), (5, 6)], True),  # every clock that unlocks it must fill
        ([(4, 4), (6, 6)], False),
    ],
)
def test_a_linked_clock_is_locked_until_what_unlocks_it_fills(unlocked_by, locked):
    assert is_locked(unlocked_by) is locked


def test_a_locked_clock_refuses_ticks_and_names_the_clock_to_fill():
    for keeper in (True, False):
        with pytest.raises(RuleError, match="locked until “Defense” fills"):
            check_tick(kind="linked", by=1, locked_until="Defense", keeper=keeper)
    with pytest.raises(RuleError, match="locked"):
        check_tick(kind="tug", by=-1, locked_until="Defense", keeper=False)
    # The GM may still take ticks off it: a correction, or undoing a roll.
    check_tick(kind="linked", by=-1, locked_until="Defense", keeper=True)


def test_only_a_tug_of_war_clock_is_ticked_down_by_players():
    check_tick(kind="tug", by=-1, locked_until=None, keeper=False)
    check_tick(kind="tug", by=1, locked_until=None, keeper=False)
    for kind in ("danger", "racing", "linked", "mission", "project"):
        check_tick(kind=kind, by=1, locked_until=None, keeper=False)
        with pytest.raises(RuleError, match="Only a tug-of-war clock can be ticked down"):
            check_tick(kind=kind, by=-1, locked_until=None, keeper=False)
        check_tick(kind=kind, by=-1, locked_until=None, keeper=True)  # the GM's correction


def test_a_faction_clock_is_the_gms_to_tick():
    with pytest.raises(RuleError, match="faction clock is ticked by the GM"):
        check_tick(kind="faction", by=1, locked_until=None, keeper=False)
    check_tick(kind="faction", by=1, locked_until=None, keeper=True)
    with pytest.raises(RuleError, match="faction clock"):
        check_setup(kind="faction", hidden=False, players_tick=True, has_rival=False)


def test_a_tick_moves_the_clock():
    with pytest.raises(RuleError, match="at least one segment"):
        check_tick(kind="danger", by=0, locked_until=None, keeper=True)


def test_clock_setup_follows_its_kind():
    check_setup(kind="racing", hidden=False, players_tick=True, has_rival=True)
    with pytest.raises(RuleError, match="cannot tick a clock they cannot see"):
        check_setup(kind="danger", hidden=True, players_tick=True, has_rival=False)
    with pytest.raises(RuleError, match="Only a racing clock races a rival"):
        check_setup(kind="danger", hidden=False, players_tick=False, has_rival=True)


@pytest.mark.parametrize(
    "links",
    [
        {1: 1},
        {1: 2, 2: 1},
        {1: 2, 2: 3, 3: 1, 4: None},
    ],
)
def test_a_chain_of_linked_clocks_cannot_come_back_on_itself(links):
    with pytest.raises(RuleError, match="cannot unlock itself"):
        check_links(links)


def test_chains_and_forks_of_linked_clocks_are_fine():
    check_links({1: 2, 2: 3, 3: None, 4: 3, 5: None})
