"""Loaded as a pytest plugin (`-p tests.order`): the tests marked `long` (a minute or
more) start first on each worker, so that none starts near the end of a stage while the
other worker has nothing left to run, and the stage waits for it alone."""

import pytest


def shares(count: int, workers: int) -> list[int]:
    """How many of `count` tests each worker is handed first: pytest-xdist's worksteal
    gives the first idle worker count // workers, the next its part of the rest, and so
    on. If that ever changes, the order below is only slower, never wrong."""
    sizes, left = [], count
    for remaining in range(workers, 0, -1):
        sizes.append(left // remaining)
        left -= sizes[-1]
    return sizes


def long_first(items: list, workers: int, is_long) -> list:
    """The items with the long ones dealt in turn to the head of each worker's share,
    everything else in the order it came."""
    longest = [item for item in items if is_long(item)]
    rest = [item for item in items if not is_long(item)]
    ordered = []
    for worker, size in enumerate(shares(len(items), workers)):
        heads = longest[worker::workers]
        taken = max(size - len(heads), 0)
        ordered += heads + rest[:taken]
        del rest[:taken]
    return ordered + rest


# Last: after the shuffle (pytest-randomly), pytest-django's grouping and the `-m` choice.
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    items[:] = long_first(items, workers, lambda item: item.get_closest_marker("long"))
