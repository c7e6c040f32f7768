"""Coin between the crew and its scoundrels: the start, the vault, the payoff's shares."""

import pytest

from blades.rules.character import RuleError, receive_coin
from blades.rules.crew import START_COIN, check_vault, coin_excess, share_payoff


def test_the_crew_starts_with_2_coin():
    """SRD_FACTS §6.2: "Start: Tier 0, strong hold, 0 rep, 2 coin"."""
    assert START_COIN == 2


@pytest.mark.parametrize(
    ("coin", "limit", "excess"), [(0, 4, 0), (4, 4, 0), (6, 4, 2), (9, 8, 1), (16, 16, 0)]
)
def test_coin_excess(coin, limit, excess):
    assert coin_excess(coin, limit) == excess


def test_coin_beyond_the_vault_must_be_spent_or_shared_before_the_next_score():
    """001 §Coin and Stash: "Any coin beyond their limit must be spent as soon as possible
    (typically before the next score) or distributed among the crew members"."""
    check_vault(4, 4)
    with pytest.raises(RuleError, match="2 coin more than its lair keeps"):
        check_vault(6, 4)


@pytest.mark.parametrize(
    ("coin", "shares", "kept"),
    [(6, [], 6), (6, [2, 2], 2), (6, [3, 3], 0), (10, [0, 4, 1], 5), (2, [2], 0)],
)
def test_payoff_divvied_up_among_the_crew_members(coin, shares, kept):
    """003 Payoff: "Record the coin on the crew sheet, or divvy it up among the crew
    members as you see fit"."""
    assert share_payoff(coin, shares) == kept


@pytest.mark.parametrize(("coin", "shares"), [(6, [4, 3]), (6, [-1]), (-1, [1])])
def test_payoff_shares_cannot_exceed_the_payoff_or_be_negative(coin, shares):
    with pytest.raises(RuleError):
        share_payoff(coin, shares)


@pytest.mark.parametrize(
    ("coin", "stash", "amount", "expected"),
    [
        (0, 0, 3, (3, 0)),
        (0, 0, 4, (4, 0)),
        (2, 0, 4, (4, 2)),  # the purse holds 4, the rest is stashed
        (4, 10, 3, (4, 13)),
        (1, 37, 6, (4, 40)),
        (3, 5, 0, (3, 5)),
    ],
)
def test_receive_coin_more_than_4_goes_to_the_stash(coin, stash, amount, expected):
    """001 §Coin and Stash: "More than 4 coin is an impractical amount to keep lying around.
    You must spend the excess or put it in your stash"."""
    assert receive_coin(coin, stash, amount) == expected


@pytest.mark.parametrize(("coin", "stash", "amount"), [(4, 40, 1), (0, 38, 7), (0, 0, -1)])
def test_receive_coin_refused_when_the_stash_is_full_or_the_amount_negative(coin, stash, amount):
    with pytest.raises(RuleError):
        receive_coin(coin, stash, amount)
