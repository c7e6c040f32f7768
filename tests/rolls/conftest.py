"""The shared roll's cast: Ada and Bo at the table, their memberships and the GM's.
The helpers the flow tests share (loaded dice, fresh reads, starting a roll) are in
tests/helpers.py."""

import pytest

from tests.factories import AdaFactory, BoFactory
from tests.helpers import member


@pytest.fixture
def ada(table, player):
    return AdaFactory(table=table, owner=player)


@pytest.fixture
def bo(table, other_player):
    return BoFactory(table=table, owner=other_player)


@pytest.fixture
def gm_m(table, gm):
    return member(table, gm)


@pytest.fixture
def ada_m(table, player, ada):
    return member(table, player)


@pytest.fixture
def bo_m(table, other_player, bo):
    return member(table, other_player)
