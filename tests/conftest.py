import pytest
from hypothesis import settings

# `pytest --hypothesis-profile=long`: every property and random evening tried far more
# often than the normal suite can afford, to look for what its fifty tries missed.
settings.register_profile("long", max_examples=1000)

# Factories are imported inside the fixtures: the pure rules tests must also run
# without Django (`-p no:django`), and this conftest is theirs too.


def pytest_sessionstart(session):
    """`make` builds the compiled translations (.mo, never committed) before the tests; a
    bare pytest run in a fresh checkout builds them here, before any page reads them.
    Up-to-date files are skipped, so this costs nothing on the next run."""
    if not session.config.pluginmanager.hasplugin("django"):
        return
    from django.core.management import call_command

    ignore = [".venv", "staticfiles", "tests", "build"]
    call_command("compilemessages", ignore_patterns=ignore, verbosity=0)


# What may answer differently on PostgreSQL and Redis than on SQLite and the in-memory
# layer: a test that reaches the database (SQL, locking, JSON fields, migrations) or the
# channel layer (sockets are async tests). `make test-postgres` runs only these; the
# pure ones (rules, template and docs checks) run once, on the embedded default, and so
# does a test marked `embedded`: it needs rows, but what it checks (the words and numbers
# a page is written in) no database can change.
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "live_server"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("embedded"):
            continue
        if (
            fixtures & DATABASE_FIXTURES
            or item.get_closest_marker("django_db")
            or item.get_closest_marker("asyncio")
        ):
            item.add_marker(pytest.mark.database)


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
    """Put back the playbooks the data migration loaded, wherever they are gone.

    A transactional test ends by emptying every table, the migration's content with it;
    the next one would find no playbooks. pytest-django runs those last, but a worker
    of `--dist worksteal` that has run some may then steal ordinary tests from the other
    worker's queue: they would find no playbooks either. The loader is idempotent, so a
    transactional test always calls it; any other test only when the playbooks are gone
    (its load is rolled back with it).
    """
    marker = request.node.get_closest_marker("django_db")
    transactional = (marker is not None and marker.kwargs.get("transaction")) or (
        "transactional_db" in request.fixturenames
    )
    if not transactional and marker is None and "db" not in request.fixturenames:
        return
    from django.apps import apps

    from characters.content import load_standard_content
    from characters.models import Playbook

    request.getfixturevalue("transactional_db" if transactional else "db")
    if transactional or not Playbook.objects.filter(table=None).exists():
        load_standard_content(apps)


@pytest.fixture(autouse=True)
def no_template_drawn_inside_a_transaction(request, monkeypatch):
    """Issue 13: some pushes were drawn inside the transaction (the write lock held while a
    template rendered, and a fragment showing what could still roll back). Actions never
    render and views render outside any transaction, so in every test that touches the
    database, a template drawn while a transaction of the app is open is a push drawn too
    early: the test fails. (A test case's own wrapping block does not count.)"""
    if not {"db", "transactional_db"} & set(request.fixturenames):
        yield
        return
    from django.db import connection
    from django.template.backends.django import Template

    drawn_inside = []
    draw = Template.render

    def watched(self, *args, **kwargs):
        if any(not block._from_testcase for block in connection.atomic_blocks):
            drawn_inside.append(self.template.name)
        return draw(self, *args, **kwargs)

    monkeypatch.setattr(Template, "render", watched)
    yield
    assert not drawn_inside, f"drawn inside a transaction: {drawn_inside}"


@pytest.fixture(autouse=True)
def fresh_webhook_list():
    """The Discord relay keeps, per process, which tables have a webhook, for a second. A
    test's hook rolled back with its test stays in that list, and SQLite gives the next
    test's table the same id: each test starts with the relay looking afresh."""
    from chronicle import relay

    relay.forget_hooks()


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each async test runs in an event loop of its own, and channels-redis binds its
    receive lock to the loop that waits on it: a socket still waiting as one test's loop
    ended left that lock held, and every later socket test failed on it ("bound to a
    different event loop"). A server has one loop, so this is the tests' own problem."""
    yield
    from django.conf import settings

    if not settings.configured:
        return  # the pure rules tests run without Django
    from channels.layers import channel_layers

    if settings.REDIS_URL:
        channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def language_of_its_own(request):
    """LocaleMiddleware activates a request's language in the thread and nothing puts it
    back: a test whose client read Spanish left the next test's refusals in Spanish. Each
    test starts and ends in the default language."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()
