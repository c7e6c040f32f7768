"""The cast of the play tests: a faction to score against and a scoundrel."""

import pytest

from tests.factories import CharacterFactory, FactionFactory


@pytest.fixture
def faction(table):
    return FactionFactory(table=table, name="Bluecoats", tier=2)


@pytest.fixture
def pc(table, player):
    return CharacterFactory(table=table, owner=player, name="Cross")
