"""The shared roll's cast: Ada and Bo at the table, their memberships and the GM's,
and the helpers the flow tests share (loaded dice, fresh reads, starting a roll)."""

import pytest

from characters.models import Character
from rolls import actions as flow
from sessions.models import Membership
from tests.factories import CharacterFactory


class Dice:
    """Hands out the faces a test wants, in order."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def member(table, user) -> Membership:
    return Membership.objects.get(table=table, user=user)


@pytest.fixture
def ada(table, player):
    return CharacterFactory(table=table, owner=player, name="Ada", prowl=2, finesse=1, skirmish=1)


@pytest.fixture
def bo(table, other_player):
    return CharacterFactory(table=table, owner=other_player, name="Bo", prowl=1, hunt=1)


@pytest.fixture
def gm_m(table, gm):
    return member(table, gm)


@pytest.fixture
def ada_m(table, player, ada):
    return member(table, player)


@pytest.fixture
def bo_m(table, other_player, bo):
    return member(table, other_player)


def fresh(character) -> Character:
    return Character.objects.get(pk=character.pk)


def start(ada_m, ada, **kwargs):
    return flow.start_roll(
        by=ada_m, character=ada, goal="slip past the guard", action="prowl", **kwargs
    )
