"""Every change of the game is a step served by the one step view
(sessions/step_view.py): a view that takes a POST is that view, or is named below with
the reason it is not one.

Which views take a POST comes from the URL resolver: each URL is posted to by a
signed-in stranger, and a view that only answers GET refuses the method (405) before any
of its own code runs. A new view that takes a POST outside the pattern fails
`test_every_view_that_takes_a_post_is_the_step_view_or_named` until it is made a step or
named here with why.
"""

import pytest
from django.test import Client
from django.urls import reverse

from sessions.step_view import take_step
from tests.factories import UserFactory
from tests.security.urls import UNKNOWN_ID, all_patterns

pytestmark = pytest.mark.django_db

# URL name: why its POST is not a step of the one step view. The first twelve change
# the database outside the pattern (issue 37 names them); each is a step to come unless
# its reason says it cannot be one.
OUTSIDE = {
    "table_list": "makes a table: there is no table yet to take a step at",
    "join": "joins by an invite link: the visitor is no member yet, and may be signed out",
    "character_new": "the creation wizard: a stepper of its own over a Draft row, not yet a step",
    "custom_playbook_new": "a page of its own whose form redraws whole; not yet a step",
    "character_edit": "the sheet's words, a ModelForm page of its own; not yet a step",
    "foundry_import": "an uploaded file read before any action; not yet a step",
    "crew_create": "founds the crew, whose steps need it to exist (CrewStep: 404 without)",
    "discord_settings": "the GM's webhooks, a ModelForm page of its own; not yet a step",
    "journal_edit": "a session's title and notes, a ModelForm page of its own; not yet a step",
    "table_restore": "makes a table from a file, in two posts kept in the session; no table yet",
    "signup": "Django's own auth form (accounts/): no table, no member",
    "language": "a person's own language in their session, before any table",
    # Django's own account views.
    "login": "Django's LoginView: no table, no member",
    "logout": "Django's LogoutView: no table, no member",
    "join_signup": "the sign-up form (accounts.views.signup_form) on an invite link",
    # Pages that answer a POST as they answer a GET: nothing changes.
    "home": "a redirect",
    "table_detail": "a page",
    "character_sheet": "a page",
    "crew_detail": "a page",
    "phase_detail": "a page",
    "phase_panel": "a fragment",
    "screen": "a page",
    "screen_shared": "the shared screen's page",
    "overlay_clocks": "an overlay of the shared screen",
    "overlay_roll": "an overlay of the shared screen",
    "overlay_party": "an overlay of the shared screen",
    "faction_list": "the ladder; its POST is the step faction-add, handed to the step view",
}


def posted_views() -> dict[str, object]:
    """Every URL name whose view does not refuse a POST by its method, with the view."""
    client, stranger = Client(), UserFactory()
    found = {}
    for pattern, _ in all_patterns():
        client.force_login(stranger)  # again: one of the URLs is the logout
        kwargs = {
            name: UNKNOWN_ID if converter.regex == "[0-9]+" else "x"
            for name, converter in pattern.pattern.converters.items()
        }
        if client.post(reverse(pattern.name, kwargs=kwargs)).status_code != 405:
            found[pattern.name] = pattern.callback
    return found


def test_every_view_that_takes_a_post_is_the_step_view_or_named():
    outside = {name for name, view in posted_views().items() if view is not take_step}
    assert sorted(outside) == sorted(OUTSIDE)


def test_the_step_view_serves_the_steps_of_every_app():
    apps = {
        view.__module__.split(".")[0]
        for pattern, _ in all_patterns()
        for view in [pattern.default_args.get("room")]
        if pattern.callback is take_step
    }
    assert apps == {"sessions", "characters", "crews", "rolls", "play", "chronicle", "backup"}
