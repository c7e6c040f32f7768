"""The shared roll's cast: Ada, Bo and Cy at the table, their memberships and the GM's,
and the group action Ada leads with Bo.
The helpers the flow tests share (loaded dice, fresh reads, starting a roll) are in
tests/helpers.py."""

import pytest

from rolls import group as flow_group
from tests.factories import AdaFactory, BoFactory, CharacterFactory, MembershipFactory
from tests.helpers import member, start


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


@pytest.fixture
def cy_m(table):
    return MembershipFactory(table=table)


@pytest.fixture
def cy(table, cy_m):
    return CharacterFactory(table=table, owner=cy_m.user, name="Cy", prowl=1)


@pytest.fixture
def group(ada_m, bo_m, ada, bo):
    """Ada leads a Prowl group action (called as proposed) and Bo joins it."""
    roll = start(ada_m, ada, group=True)
    return flow_group.join_group(by=bo_m, roll=roll)
