import pytest


@pytest.fixture
def crew(table):
    """A Shadows crew made the way the GM makes one: defaults, map and all."""
    from crews import actions

    return actions.create_crew(table=table, crew_type="shadows", name="The Lampblacks' Bane")
