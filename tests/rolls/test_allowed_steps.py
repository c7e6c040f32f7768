"""The panel and the guards ask one predicate (rolls.access.allowed_steps): for a sweep of
roll states and the three kinds of person at a table, every step the panel does not show
is refused when posted anyway (403 or 422, nothing changed), and every step it shows is
not refused for who is asking."""

import re

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.urls import reverse

from blades.rules.rolls import Effect, Position
from characters.models import Character
from crews.models import Crew
from rolls import actions as flow
from rolls import group as flow_group
from rolls import outcome as flow_outcome
from rolls.models import ActionRoll, Consequence, RollEvent
from rolls.views import CONSEQUENCE_STEPS, ROLL_STEPS
from tests.factories import ClockFactory, CohortFactory
from tests.helpers import Dice, call

HTMX = {"HTTP_HX_REQUEST": "true"}


def uncalled(gm_m, ada_m, bo_m, ada, bo):
    return flow.start_roll(by=ada_m, character=ada, goal="slip past", action="prowl")


def bargaining(gm_m, ada_m, bo_m, ada, bo):
    roll = call(uncalled(gm_m, ada_m, bo_m, ada, bo))
    flow.ask_trade(by=ada_m, roll=roll)
    return flow.offer_bargain(by=bo_m, roll=roll, text="your cover is blown")


def assisted_and_pushed(gm_m, ada_m, bo_m, ada, bo):
    roll = call(uncalled(gm_m, ada_m, bo_m, ada, bo))
    flow.assist(by=bo_m, roll=roll)
    return flow.set_push(by=ada_m, roll=roll, dice_=True, effect=False)


def flashback_unpriced(gm_m, ada_m, bo_m, ada, bo):
    return flow.start_roll(
        by=ada_m, character=ada, goal="had a key", action="prowl", flashback=True
    )


def group_called(gm_m, ada_m, bo_m, ada, bo):
    CohortFactory(crew=Crew.objects.get(table_id=ada.table_id))
    roll = flow.start_roll(by=ada_m, character=ada, goal="storm", action="prowl", group=True)
    flow_group.join_group(by=bo_m, roll=roll)
    return call(roll)


def group_half_rolled(gm_m, ada_m, bo_m, ada, bo):
    roll = group_called(gm_m, ada_m, bo_m, ada, bo)
    return flow_group.roll_dice(by=bo_m, roll=roll, rng=Dice(4, 4, 4))


def harmed(gm_m, ada_m, bo_m, ada, bo):
    roll = call(uncalled(gm_m, ada_m, bo_m, ada, bo))
    flow.roll_dice(by=ada_m, roll=roll, rng=Dice(2, 2, 2))
    flow_outcome.add_consequence(
        by=gm_m, roll=roll, kind="harm", level=2, description="Cut", attribute="prowess"
    )
    return roll


def assister_harmed(gm_m, ada_m, bo_m, ada, bo):
    roll = assisted_and_pushed(gm_m, ada_m, bo_m, ada, bo)
    flow.roll_dice(by=ada_m, roll=roll, rng=Dice(2, 2, 2, 2))
    flow_outcome.add_consequence(by=gm_m, roll=roll, kind="harm", level=1, description="Cut",
                                 character=bo)  # fmt: skip
    return roll


def resisted(gm_m, ada_m, bo_m, ada, bo):
    roll = harmed(gm_m, ada_m, bo_m, ada, bo)
    consequence = roll.consequences.get()
    flow_outcome.resist(by=ada_m, consequence=consequence, rng=Dice(3, 3, 3, 3))
    return roll


def succeeded(gm_m, ada_m, bo_m, ada, bo):
    roll = flow.set_terms(
        by=gm_m, roll=uncalled(gm_m, ada_m, bo_m, ada, bo), position=Position.DESPERATE,
        effect=Effect.GREAT,
    )  # fmt: skip
    return flow.roll_dice(by=ada_m, roll=roll, rng=Dice(6, 6, 6))


def closed(gm_m, ada_m, bo_m, ada, bo):
    return flow_outcome.finish(by=gm_m, roll=harmed(gm_m, ada_m, bo_m, ada, bo))


STATES = [
    uncalled,
    bargaining,
    assisted_and_pushed,
    flashback_unpriced,
    group_called,
    group_half_rolled,
    harmed,
    assister_harmed,
    resisted,
    succeeded,
    closed,
]


def data_for(step: str, roll: ActionRoll, ada, clock) -> dict:
    """Values a person who sees the step's form would send."""
    cohort = Crew.objects.get(table_id=roll.table_id).cohorts.first()
    return {
        "terms": {"position": "risky", "effect": "2", "flashback_cost": "1"},
        "ask-trade": {"for": "effect"},
        "group-bonus": {"push_dice": "1"},
        "group-assist": {"participant": ada.pk},
        "leave": {"participant": list(roll.group)[-1] if roll.group else ""},
        "cohort": {"cohort": cohort.pk if cohort else ""},
        "push": {"push_effect": "1"},
        "offer-bargain": {"bargain": "a debt"},
        "ability": {"bonus": "dice", "reason": "Ambush"},
        "consequence": {"kind": "harm", "level": "1", "description": "Bruise", "character": ada.pk},
        "tick": {"clock": clock.pk},
        "armor": {"box": "armor"},
    }.get(step, {})


def state_of(table) -> list:
    """Everything a step could change at the table."""
    return [
        [model_to_dict(r) for r in ActionRoll.objects.filter(table=table).order_by("pk")],
        [model_to_dict(c) for c in Consequence.objects.filter(roll__table=table).order_by("pk")],
        RollEvent.objects.filter(roll__table=table).count(),
        [model_to_dict(c) for c in Character.objects.filter(table=table).order_by("pk")],
    ]


class Undone(Exception):
    """Takes the post back with the block it ran in."""


def post_then_undo(client, table, url: str, data: dict):
    try:
        with transaction.atomic():
            # The test's own block, as a test case's is: the panel is drawn inside it.
            connection.atomic_blocks[-1]._from_testcase = True
            before = state_of(table)
            response = client.post(url, data, **HTMX)
            raise Undone(response, before == state_of(table))
    except Undone as undone:
        return undone.args


def shown_steps(client, table, roll: ActionRoll) -> set[str]:
    """The steps the person's panel has a form for, on this roll and its consequences."""
    html = client.get(reverse("flow_panel", args=[table.pk])).content.decode()
    prefix = reverse("flow_step", args=[table.pk, roll.pk, "x"]).removesuffix("x/")
    found = set(re.findall(rf'action="{re.escape(prefix)}(?:consequences/\d+/)?([a-z-]+)/"', html))
    return found


@pytest.mark.parametrize("state", STATES, ids=lambda state: state.__name__)
def test_the_panel_shows_the_steps_the_guards_let_through(
    client, table, gm, player, other_player, gm_m, ada_m, bo_m, ada, bo, crew, state
):
    roll = state(gm_m, ada_m, bo_m, ada, bo)
    clock = ClockFactory(table=table)
    consequence = Consequence.objects.filter(roll=roll).first()
    wrong = []
    for user in (gm, player, other_player):
        client.force_login(user)
        shown = shown_steps(client, table, roll)
        steps = [("roll", name) for name in ROLL_STEPS]
        if consequence is not None:
            steps += [("consequence", name) for name in CONSEQUENCE_STEPS]
        for where, name in steps:
            if where == "roll":
                url = reverse("flow_step", args=[table.pk, roll.pk, name])
            else:
                args = [table.pk, roll.pk, consequence.pk, name]
                url = reverse("flow_consequence_step", args=args)
            response, unchanged = post_then_undo(
                client, table, url, data_for(name, roll, ada, clock)
            )
            if name in shown and response.status_code == 403:
                wrong.append((user.username, name, "shown but refused for who asks"))
            if name not in shown and (response.status_code not in (403, 422) or not unchanged):
                wrong.append((user.username, name, f"hidden but {response.status_code}"))
    assert wrong == []
