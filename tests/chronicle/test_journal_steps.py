"""The journal's pages and their steps ask the same question (chronicle/access.py): a
step whose control its page (the journal, the Discord page) does not draw for a member
is refused and changes nothing; one it draws is taken."""

import pytest
from django.forms.models import model_to_dict
from django.urls import reverse

from chronicle import actions as journal_actions
from chronicle import urls
from chronicle.models import Learned, PlaySession
from chronicle.steps import STEPS

POSTED = {
    "start": {"title": "Night two"},
    "end": {},
    "learned": {"text": "The canal floods"},
    "discord-test": {},
}


def step_urls():
    """Every URL the journal's step view serves, from the URLconf: its step, its name and
    whether it names the session."""
    return [
        (p.default_args["step"], p.name, "session_id" in p.pattern.converters)
        for p in urls.urlpatterns
        if "step" in p.default_args
    ]


def state() -> list:
    return [
        [model_to_dict(row) for row in m.objects.order_by("pk")] for m in (PlaySession, Learned)
    ]


def test_every_step_has_a_post():
    assert {taken for taken, _, _ in step_urls()} == set(POSTED)


@pytest.mark.parametrize("open_session", [True, False])
@pytest.mark.parametrize("audience", ["gm", "player"])
@pytest.mark.parametrize(("taken", "name", "of_session"), step_urls())
def test_a_step_is_refused_exactly_when_its_control_is_not_drawn(
    client, table, gm, player, audience, open_session, taken, name, of_session
):
    session = journal_actions.start_session(table=table)
    if not open_session:
        journal_actions.end_session(session=session)
    client.force_login(gm if audience == "gm" else player)
    shown = client.get(reverse(STEPS[taken].page, args=[table.pk])).content.decode()
    url = reverse(name, args=[table.pk, session.pk] if of_session else [table.pk])
    before = state()
    response = client.post(url, POSTED[taken])
    if f'action="{url}"' in shown:
        assert response.status_code == 302
    else:
        assert response.status_code in (403, 422)
        assert state() == before
