"""The steps of the shared roll: one form each, whose `execute()` calls the one action
that takes it (sessions/steps.py).

`ROLL_STEPS` are taken on an open roll, `CONSEQUENCE_STEPS` on one of its consequences,
`TABLE_STEPS` at the table (a proposal, the GM's fortune roll, the GM's undo). Who may
take each is rolls.access's question (`WHO_TAKES`), which the actions ask and the panel
too; a form only reads what was posted, within its bounds.
"""

from functools import cached_property

from django import forms
from django.utils.translation import gettext, gettext_lazy, pgettext

from blades.rules import character as char_rules
from blades.rules import flow as flow_rules
from blades.rules.dice import MAX_POOL
from blades.rules.rolls import Effect, Position
from characters import wording
from characters.models import Character
from crews.models import Cohort
from sessions import steps
from sessions.access import clocks_for

from . import actions, group, outcome, undo
from .access import may, require_may, viewer_of
from .models import ActionRoll


def choice(values, refusal: str, *, required: bool = True) -> forms.TypedChoiceField:
    """One of `values` (enum members or plain values), as the panel's select offers it;
    `refusal` is what a post without one of them is told."""
    by_text = {str(getattr(value, "value", value)): value for value in values}
    return forms.TypedChoiceField(
        choices=[(text, text) for text in by_text],
        coerce=by_text.get,
        required=required,
        empty_value=None,
        error_messages={"required": refusal, "invalid_choice": refusal},
    )


def in_table(model) -> steps.OneOf:
    """One of the roll's table's rows of `model` (the step sets the queryset)."""
    field = steps.OneOf()
    field.of_model = model
    return field


# --- On an open roll ------------------------------------------------------------------------


class RollStep(steps.Step):
    """A step on the open roll `self.roll`, taken by `self.by`."""

    def __init__(self, data, **context):
        super().__init__(data, **context)
        table_id = self.roll.table_id
        querysets = {
            Character: Character.objects.filter(table_id=table_id),
            Cohort: Cohort.objects.filter(crew__table_id=table_id),
        }
        for field in self.fields.values():
            if getattr(field, "of_model", None) is not None:
                field.queryset = querysets[field.of_model]


class Terms(RollStep):
    position = choice(list(Position), gettext_lazy("choose a position."))
    effect = choice(list(Effect), gettext_lazy("choose an effect."))
    flashback_cost = choice(
        flow_rules.FLASHBACK_COSTS, gettext_lazy("choose a cost."), required=False
    )

    def execute(self):
        return actions.set_terms(by=self.by, roll=self.roll, **self.cleaned_data)


class AsProposed(RollStep):
    def execute(self):
        return actions.accept_as_proposed(by=self.by, roll=self.roll)


class AskTrade(RollStep):
    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["for"] = steps.text(20)  # "for" is Python's own word: no attribute

    def execute(self):
        direction = self.cleaned_data["for"] or "effect"
        return actions.ask_trade(by=self.by, roll=self.roll, direction=direction)


class AcceptTrade(RollStep):
    def execute(self):
        return actions.answer_trade(by=self.by, roll=self.roll, accept=True)


class RefuseTrade(RollStep):
    def execute(self):
        return actions.answer_trade(by=self.by, roll=self.roll, accept=False)


class Assist(RollStep):
    foresight = steps.flag()

    def execute(self):
        return actions.assist(by=self.by, roll=self.roll, foresight=self.cleaned_data["foresight"])


class Join(RollStep):
    def execute(self):
        return group.join_group(by=self.by, roll=self.roll)


class GroupBonus(RollStep):
    push_dice = steps.flag()
    bargain = steps.text(200)
    push_act = steps.flag()

    def execute(self):
        data = self.cleaned_data
        return group.set_group_bonus(
            by=self.by, roll=self.roll, push=data["push_dice"], bargain=data["bargain"],
            act=data["push_act"],
        )  # fmt: skip


class GroupAssist(RollStep):
    participant = in_table(Character)
    foresight = steps.flag()

    def execute(self):
        data = self.cleaned_data
        return group.assist_group(
            by=self.by, roll=self.roll, participant=data["participant"],
            foresight=data["foresight"],
        )  # fmt: skip


class LeadCohort(RollStep):
    cohort = in_table(Cohort)

    def execute(self):
        return group.roll_cohort(by=self.by, roll=self.roll, cohort=self.cleaned_data["cohort"])


class Push(RollStep):
    push_dice = steps.flag()
    push_effect = steps.flag()
    push_act = steps.flag()
    push_special = steps.flag()

    def execute(self):
        data = self.cleaned_data
        return actions.set_push(
            by=self.by, roll=self.roll, dice_=data["push_dice"], effect=data["push_effect"],
            act=data["push_act"], special=data["push_special"],
        )  # fmt: skip


class OfferBargain(RollStep):
    bargain = steps.text(200)

    def execute(self):
        return actions.offer_bargain(by=self.by, roll=self.roll, text=self.cleaned_data["bargain"])


class AcceptBargain(RollStep):
    def execute(self):
        return actions.accept_bargain(by=self.by, roll=self.roll)


class RooksGambit(RollStep):
    def execute(self):
        return actions.rooks_gambit(by=self.by, roll=self.roll)


class AbilityStress(RollStep):
    """Emberdeath or Ghost Veil, used by the roller for its stress (Ghost Veil's extras
    each a flag)."""

    ability = steps.text(20)
    veil_minutes = steps.flag()
    veil_invisible = steps.flag()
    veil_floating = steps.flag()

    def execute(self):
        data = self.cleaned_data
        extras = tuple(e for e in ("minutes", "invisible", "floating") if data[f"veil_{e}"])
        return actions.ability_stress(
            by=self.by, roll=self.roll, ability=data["ability"], extras=extras
        )


class AbilityBonus(RollStep):
    bonus = steps.text(20)
    reason = steps.text(120)

    def execute(self):
        if self.roll.kind == ActionRoll.Kind.GROUP:
            return group.add_group_ability(by=self.by, roll=self.roll, **self.cleaned_data)
        return actions.add_ability_bonus(by=self.by, roll=self.roll, **self.cleaned_data)


class Leave(RollStep):
    """A group action's participant leaves it, or the GM drops them."""

    participant = in_table(Character)

    def execute(self):
        return group.leave_group(
            by=self.by, roll=self.roll, participant=self.cleaned_data["participant"]
        )


class Roll(RollStep):
    """The roller's dice, or in a group action one participant's own."""

    def execute(self):
        if self.roll.kind == ActionRoll.Kind.GROUP:
            return group.roll_dice(by=self.by, roll=self.roll)
        return actions.roll_dice(by=self.by, roll=self.roll)


class Cancel(RollStep):
    def execute(self):
        return actions.cancel(by=self.by, roll=self.roll)


class AddConsequence(RollStep):
    """Which of clock and heat a complication needs is the action's rule, not the form's."""

    kind = steps.text(30)
    description = steps.text(120)
    level = steps.number(required=False)
    clock = steps.OneOf(label=gettext_lazy("Clock"))
    ticks = steps.number(required=False)
    heat = steps.number(required=False)
    attribute = steps.text(20)
    character = in_table(Character)
    supernatural = steps.flag()

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["clock"].queryset = clocks_for(self.by)

    def execute(self):
        data = self.cleaned_data
        return outcome.add_consequence(
            by=self.by, roll=self.roll, kind=data["kind"], description=data["description"],
            level=data["level"] or None, clock=data["clock"], ticks=data["ticks"] or 0,
            heat=data["heat"] or 0, attribute=data["attribute"], character=data["character"],
            supernatural=data["supernatural"],
        )  # fmt: skip


class TickTarget(RollStep):
    clock = steps.OneOf(label=gettext_lazy("Clock"), required=True)

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["clock"].queryset = clocks_for(self.by)
        self.fields["clock"].error_messages["required"] = gettext("choose a clock.")

    def execute(self):
        return outcome.tick_target(by=self.by, roll=self.roll, clock=self.cleaned_data["clock"])


class Finish(RollStep):
    def execute(self):
        return outcome.finish(by=self.by, roll=self.roll)


ROLL_STEPS: dict[str, type[RollStep]] = {
    "terms": Terms,
    "as-proposed": AsProposed,
    "ask-trade": AskTrade,
    "accept-trade": AcceptTrade,
    "refuse-trade": RefuseTrade,
    "assist": Assist,
    "join": Join,
    "group-bonus": GroupBonus,
    "group-assist": GroupAssist,
    "leave": Leave,
    "cohort": LeadCohort,
    "push": Push,
    "offer-bargain": OfferBargain,
    "accept-bargain": AcceptBargain,
    "rooks-gambit": RooksGambit,
    "ability-stress": AbilityStress,
    "ability": AbilityBonus,
    "roll": Roll,
    "cancel": Cancel,
    "consequence": AddConsequence,
    "tick": TickTarget,
    "finish": Finish,
}


# --- On one consequence -------------------------------------------------------------------


class Resist(steps.Step):
    def execute(self):
        return outcome.resist(by=self.by, consequence=self.consequence)


class Armor(steps.Step):
    box = steps.text(20)

    def execute(self):
        box = self.cleaned_data["box"] or "armor"
        return outcome.use_armor(by=self.by, consequence=self.consequence, box=box)


class Protect(steps.Step):
    def execute(self):
        return outcome.protect(by=self.by, consequence=self.consequence)


class Guard(steps.Step):
    def execute(self):
        return outcome.guard(by=self.by, consequence=self.consequence)


class Reduced(steps.Step):
    def execute(self):
        return outcome.judge_resistance(by=self.by, consequence=self.consequence, avoided=False)


class Avoided(steps.Step):
    def execute(self):
        return outcome.judge_resistance(by=self.by, consequence=self.consequence, avoided=True)


CONSEQUENCE_STEPS: dict[str, type[steps.Step]] = {
    "resist": Resist,
    "armor": Armor,
    "protect": Protect,
    "guard": Guard,
    "reduced": Reduced,
    "avoided": Avoided,
}


# --- At the table ---------------------------------------------------------------------------


def teammates(viewer):
    mine = viewer.character
    others = Character.objects.filter(table_id=viewer.membership.table_id, state="active")
    return others.exclude(pk=mine.pk) if mine else others.none()


class TableRollStep(steps.Step):
    """A step of the rolls taken at the table, not on an open roll (a proposal, the GM's
    fortune roll, the GM's undo), its form above the panel (`form_key` in the page's
    context, `partial` of rolls/flow.html): drawn unbound on the page (`data` None),
    bound again with its errors when refused."""

    partial = form_key = taken = ""

    @cached_property
    def viewer(self):
        return viewer_of(self.by)

    def allow(self) -> None:
        """Who may take it (rolls.access.WHO_TAKES[taken]), asked before anything posted
        is read: 403 else."""
        require_may(self.viewer, self.table, self.taken)

    def allowed(self) -> bool:
        """The same question, for the page deciding whether to draw the step's form."""
        return may(self.viewer, self.table, self.taken)


class StartRoll(TableRollStep):
    """A player proposes a roll for their own character."""

    prefix, partial, form_key, taken = "start", "flow-start", "start_form", "start"
    goal = forms.CharField(label=gettext_lazy("Goal"), max_length=200)
    action = forms.ChoiceField(
        label=gettext_lazy("Action"),
        choices=[(a, wording.ACTION_NAMES[a]) for a in char_rules.ACTIONS],
    )
    group = forms.BooleanField(label=gettext_lazy("Group action (I lead)"), required=False)
    gather_information = forms.BooleanField(
        label=gettext_lazy("Gather information"), required=False
    )
    flashback = forms.BooleanField(label=gettext_lazy("Flashback"), required=False)
    setup_for = forms.TypedChoiceField(
        label=gettext_lazy("Set up a teammate"), coerce=int, required=False, empty_value=None
    )
    # Its choices are the rules' words, set in the reader's language in __init__.
    setup_benefit = forms.ChoiceField(label=gettext_lazy("Set-up benefit"), required=False)

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.teammates = teammates(self.viewer)
        self.fields["setup_for"].choices = [("", gettext("Nobody"))] + [
            (c.pk, c.name) for c in self.teammates
        ]
        effect = gettext("+%(effect)s effect") % {"effect": flow_rules.SETUP_EFFECT}
        position = pgettext("a setup's benefit, offered", "Improved position")
        self.fields["setup_benefit"].choices = [
            ("", "—"), ("effect", effect), ("position", position)
        ]  # fmt: skip

    def clean(self):
        data = super().clean()
        if data.get("setup_for") and not data.get("setup_benefit"):
            self.add_error(
                "setup_benefit",
                gettext("Choose +%(effect)s effect or improved position.")
                % {"effect": flow_rules.SETUP_EFFECT},
            )
        return data

    def execute(self):
        data = self.cleaned_data
        self.allow()  # asked again for a caller without the view: the viewer keeps its answer
        return actions.start_roll(
            by=self.by, character=self.viewer.character, goal=data["goal"],
            action=data["action"], group=data["group"],
            gather_information=data["gather_information"], flashback=data["flashback"],
            setup_for=self.teammates.filter(pk=data["setup_for"]).first(),
            setup_benefit=data["setup_benefit"],
        )  # fmt: skip


class FortuneRoll(TableRollStep):
    """The GM's fortune roll (or gathering information). Advantages and disadvantages are
    bounded by the largest pool the dice roll (blades.rules.dice): more of either cannot
    change what is rolled."""

    prefix, partial, form_key, taken = "fortune", "flow-fortune", "fortune_form", "fortune"
    goal = forms.CharField(label=gettext_lazy("What is at stake"), max_length=200)
    trait = forms.IntegerField(
        label=gettext_lazy("Trait dice"), min_value=0, max_value=MAX_POOL, initial=2
    )
    advantages = forms.IntegerField(
        label=gettext_lazy("Advantages"), min_value=0, max_value=MAX_POOL, initial=0
    )
    disadvantages = forms.IntegerField(
        label=gettext_lazy("Disadvantages"), min_value=0, max_value=MAX_POOL, initial=0
    )
    gather_information = forms.BooleanField(
        label=gettext_lazy("Gather information"), required=False
    )
    secret = forms.BooleanField(label=gettext_lazy("Secret (GM only)"), required=False)

    def execute(self):
        return outcome.fortune_roll(by=self.by, table=self.table, **self.cleaned_data)


class Undo(TableRollStep):
    """The GM's undo of the last finished roll: `roll` is the one the button named."""

    taken = "undo"
    roll = steps.whole(low=0, high=steps.ID_MAX, required=False)

    def execute(self):
        roll_id = self.cleaned_data["roll"] or None
        return undo.undo_last(by=self.by, table=self.table, roll_id=roll_id)


TABLE_STEPS: dict[str, type[TableRollStep]] = {
    "start": StartRoll,
    "fortune": FortuneRoll,
    "undo": Undo,
}
