import pytest

# Factories are imported inside the fixtures: the pure rules tests must also run
# without Django (`-p no:django`), and this conftest is theirs too.


@pytest.fixture
def table(db):
    from tests.factories import TableFactory

    return TableFactory()


@pytest.fixture
def gm(table):
    return table.gm


@pytest.fixture
def player(table):
    from tests.factories import MembershipFactory

    return MembershipFactory(table=table).user


@pytest.fixture
def other_player(table):
    from tests.factories import MembershipFactory

    return MembershipFactory(table=table).user


@pytest.fixture
def outsider(db):
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def crew(table):
    """A Shadows crew made the way the GM makes one: defaults, map and all."""
    from crews import actions

    return actions.create_crew(table=table, crew_type="shadows", name="The Lampblacks' Bane")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Real hashing costs ~0.3 s per user; these tests are not about hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def standard_content(request):
    """Put back the playbooks the data migration loaded, for transactional tests.

    A transactional test ends by emptying every table, the migration's content with it;
    the next one would find no playbooks. The loader is idempotent, so this is cheap
    and safe even where the content is still there.
    """
    marker = request.node.get_closest_marker("django_db")
    transactional = (marker is not None and marker.kwargs.get("transaction")) or (
        "transactional_db" in request.fixturenames
    )
    if transactional:
        from django.apps import apps

        from characters.content import load_standard_content

        request.getfixturevalue("transactional_db")
        load_standard_content(apps)
