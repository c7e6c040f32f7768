"""The wizard's draft, driven through its actions and queries (the view only parses and
renders): stale answers, moving between steps, the final check and the creation."""

from django.urls import reverse

from characters import actions, queries
from characters.forms import STEPS, check_draft
from characters.models import WIZARD_STEPS, Character, Draft
from tests.factories import DraftFactory, standard_playbook
from tests.helpers import wizard_answers


def finished_draft(table, player, playbook) -> Draft:
    data = {}
    for step in wizard_answers(playbook):
        data.update({k: str(v) for k, v in step.items() if k != "step"})
    return DraftFactory(table=table, user=player, step="name", data=data)


def test_every_step_has_a_title_and_a_form(db):
    assert tuple(STEPS) == WIZARD_STEPS


def test_a_new_playbook_drops_the_answers_taken_from_the_old_one(table, player):
    cutter, lurk = standard_playbook("cutter"), standard_playbook("lurk")
    draft = finished_draft(table, player, cutter)
    actions.answer_step(
        draft=draft, step="playbook", answers={"playbook": str(lurk.pk)}, back=False, accepted=True
    )
    draft.refresh_from_db()
    assert draft.data["playbook"] == str(lurk.pk)
    assert not {"ability", "close_friend", "rival"} & set(draft.data)
    assert draft.data["name"] == "Vex" and draft.step == "heritage"


def test_the_same_playbook_again_keeps_its_answers(table, player):
    cutter = standard_playbook("cutter")
    draft = finished_draft(table, player, cutter)
    chosen = {"playbook": str(cutter.pk)}
    actions.answer_step(draft=draft, step="playbook", answers=chosen, back=False, accepted=True)
    draft.refresh_from_db()
    assert {"ability", "close_friend", "rival"} <= set(draft.data)


def test_a_step_goes_back_on_or_stays(table, player):
    draft = finished_draft(table, player, standard_playbook("cutter"))
    answered = {"heritage_detail": "Typed"}
    go = actions.answer_step
    assert not go(draft=draft, step="vice", answers=answered, back=True, accepted=False)
    assert Draft.objects.get().step == "friends"
    assert not go(draft=draft, step="vice", answers=answered, back=False, accepted=True)
    assert Draft.objects.get().step == "name"
    assert not go(draft=draft, step="vice", answers=answered, back=False, accepted=False)
    assert Draft.objects.get().step == "vice"
    assert go(draft=draft, step="name", answers={}, back=False, accepted=True)
    assert Draft.objects.get().data["heritage_detail"] == "Typed"


def test_a_draft_without_a_playbook_opens_on_the_first_step(table, player):
    DraftFactory(table=table, user=player, step="vice", data={"playbook": "nonsense"})
    draft = actions.open_draft(table=table, user=player)
    assert draft.step == "playbook"
    assert queries.posted_step(draft, table, "vice") == "playbook"
    assert queries.posted_step(draft, table, "not-a-step") is None


def test_a_finished_draft_makes_the_character_and_goes(table, player):
    draft = finished_draft(table, player, standard_playbook("cutter"))
    choices, refused, _ = check_draft(draft, table)
    assert refused is None
    character = actions.create_from_draft(draft=draft, choices=choices)
    assert (character.name, character.playbook.key, character.skirmish) == ("Vex", "cutter", 2)
    assert not Draft.objects.exists()


def test_the_final_check_sends_the_player_back_to_a_stale_step(client, table, player):
    """An ability of another playbook in the draft (an old tab posted it) is refused at
    the end, on the ability step, and nothing is made."""
    draft = finished_draft(table, player, standard_playbook("cutter"))
    draft.data["ability"] = str(standard_playbook("lurk").abilities.first().pk)
    draft.save()
    client.force_login(player)
    response = client.post(
        reverse("character_new", args=[table.pk]), {"step": "name", "name": "Vex", "nav": "next"}
    )
    assert response.status_code == 422
    assert Draft.objects.get().step == "ability"
    assert not Character.objects.exists()
