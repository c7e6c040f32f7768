"""Real Chromium against a real daphne.

The daphne process serves the pytest-django test database (a file, see settings), so
what a test writes with the ORM the server reads, and what the browsers do the test
can check. Every browser test uses `transactional_db`: data is committed for the
server to see and flushed after the test. The helpers live in tests/browsers.py,
shared with the scale suite.
"""

import pytest
from django.apps import apps
from django.db import connection

from characters.content import load_standard_content
from crews import actions as crew_actions
from crews.models import Crew
from play import phases
from sessions import actions
from tests import browsers

# Shared fixtures from tests/browsers.py (Chromium's flags, users the live server can
# log in): pytest finds them by their names here. Test files import helpers from there.
from tests.browsers import browser_type_launch_args as browser_type_launch_args
from tests.browsers import fast_password_hashing as fast_password_hashing
from tests.browsers import make_user as make_user
from tests.factories import AdaFactory, BoFactory, FactionFactory, MembershipFactory
from tests.helpers import Dice
from tests.live_server import Daphne, watch_logs
from tests.live_server import pytest_runtest_makereport as pytest_runtest_makereport


@pytest.fixture(scope="session")
def daphne(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        database = connection.settings_dict["NAME"]
    server = Daphne(f"sqlite:///{database}")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def server(daphne, transactional_db, request):
    """The live server for one test; restarted if a test left it down."""
    if daphne.process.poll() is not None:
        daphne.start()
    watch_logs(request.node, daphne)
    return daphne


@pytest.fixture
def person(browser, server):
    """A browser context per person at the table; `person("gm")` logs them in.

    The test fails if any page of any of them reported a Content-Security-Policy
    violation (tests/browsers.py noting_refusals)."""
    refused = []
    with browsers.people(browser, server.url, browsers.noting_refusals(refused)) as open_as:
        yield open_as
    assert refused == []


@pytest.fixture
def content(transactional_db):
    # transactional_db flushed the rows the data migration loaded.
    load_standard_content(apps)


@pytest.fixture
def crew(content, make_user):
    """The Crows' Nest: the GM, and Ada and Bo playing Ada and Bo (a module may have a
    `crew` of its own)."""
    gm, ada_user, bo_user = (make_user(name) for name in ("gm", "ada", "bo"))
    table = actions.create_table(gm=gm, name="The Crows' Nest")
    for user in (ada_user, bo_user):
        MembershipFactory(table=table, user=user)
    ada = AdaFactory(table=table, owner=ada_user)
    bo = BoFactory(table=table, owner=bo_user)
    return table, ada, bo


@pytest.fixture
def reprisals(content, make_user):
    """The Crows' Nest at its entanglement, the GM alone at it: heat 4, wanted 1, a 4 on
    the die gives Reprisals or Unquiet Dead (the heat 4-5 column, the 4/5 row)."""
    gm = make_user("gm")
    table = actions.create_table(gm=gm, name="The Crows' Nest")
    crew = crew_actions.create_crew(table=table, crew_type="shadows", name="Crows")
    FactionFactory(table=table, name="Bluecoats", tier=2)
    phases.start_score(table=table, plan="stealth", detail="Roof", target_name="A vault")
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(4))
    phases.end_score(table=table)
    phases.payoff(table=table, size="standard")
    phases.take_heat(table=table, exposure="contained")
    Crew.objects.filter(pk=crew.pk).update(heat=4, wanted=1, rep=5, coin=6)
    phases.roll_entanglement(table=table, roller=gm, rng=Dice(4))
    return table
