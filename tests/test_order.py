"""The long tests start first on each worker (tests/order.py)."""

import pytest

from tests.order import long_first, shares


@pytest.mark.parametrize(
    ("count", "workers", "sizes"),
    [(10, 1, [10]), (10, 2, [5, 5]), (11, 2, [5, 6]), (7, 3, [2, 2, 3])],
)
def test_each_worker_is_handed_its_part_as_worksteal_hands_it(count, workers, sizes):
    assert shares(count, workers) == sizes


def test_the_long_tests_head_each_workers_share_and_nothing_is_lost():
    items = ["a", "B", "c", "d", "e", "F", "g", "h", "i", "J", "k"]
    ordered = long_first(items, 2, str.isupper)
    assert sorted(ordered) == sorted(items)
    assert ordered[:5] == ["B", "J", "a", "c", "d"] and ordered[5:] == [
        "F",
        "e",
        "g",
        "h",
        "i",
        "k",
    ]


def test_alone_the_long_tests_come_first_in_the_order_they_came():
    assert long_first(["a", "B", "c", "D"], 1, str.isupper) == ["B", "D", "a", "c"]
