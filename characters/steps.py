"""The sheet's steps: one form each, whose `execute()` calls the one action.

`SHEET_STEPS` names them as the URL does (`.../do/<name>/`); the one step view serves
them all (`views.SheetRoom`). `control` is the control on the sheet a refusal is shown
beside, whichever field or rule refused: the sheet has one message slot per control, not
per field.
"""

from django import forms
from django.utils.translation import gettext_noop

from blades.rules import character as char_rules
from sessions import steps

from . import actions, queries
from .access import (
    EXPERTISE_AGAIN,
    MARK_DEAD,
    can_take_sheet_step,
    mastery_for,
    sheet_step_refusal,
)

XP_TRACKS = ("playbook", *char_rules.ATTRIBUTES)
# The longest text each field takes; the sheet's inputs say the same numbers.
HARM_TEXT_MAX = 80
TRAUMA_REASON_MAX = 120
NOTES_MAX = 5000


def name() -> forms.CharField:
    """A name the action judges in its own words (an action, a trauma, a load level),
    exactly as posted (not stripped: " dead" is no state, as the guard reads it): only
    what no name can be (a NUL byte) is refused here."""
    return forms.CharField(required=False, strip=False)


class SheetStep(steps.Step):
    """A step on `self.character`, taken by the member `self.by`."""

    named = ""  # as the URL names it

    def question(self) -> str:
        """What `access.can_take_sheet_step` is asked about: the step's own name."""
        return self.named

    def allowed(self) -> bool:
        return can_take_sheet_step(self.by, self.character, self.question())

    @property
    def forbidden(self) -> str:
        return sheet_step_refusal(self.question())

    def _control(self, prefix: str, posted: str, known, fallback: str) -> str:
        """The control of the posted name, or the first of its kind when the name is not
        one (the page has no control of that name to show the message by)."""
        value = self.data.get(posted)
        return f"{prefix}_{value}" if value in known else fallback

    def _mine(self, field: str) -> int:
        """The id of one of this sheet's own things, checked by its `OneOf` field."""
        found = self.cleaned_data[field]
        if found is None:
            raise steps.InputError(gettext_noop("Choose one from the sheet."))
        return found.pk


class Stress(SheetStep):
    named = "stress"
    control = "stress"
    amount = steps.number()

    def execute(self):
        return actions.mark_stress(character=self.character, amount=self.cleaned_data["amount"])


class SetStress(SheetStep):
    named = "set-stress"
    control = "set_stress"
    stress = steps.number()

    def execute(self):
        return actions.set_stress(character=self.character, stress=self.cleaned_data["stress"])


class Trauma(SheetStep):
    named = "trauma"
    control = "trauma"
    condition = name()

    def execute(self):
        return actions.choose_trauma(
            character=self.character, condition=self.cleaned_data["condition"]
        )


class TraumaByHand(SheetStep):
    named = "trauma-mark"
    control = "trauma_gm"
    condition = name()
    reason = steps.text(TRAUMA_REASON_MAX)
    change = staticmethod(actions.gm_mark_trauma)

    def execute(self):
        data = self.cleaned_data
        return self.change(
            character=self.character, condition=data["condition"], reason=data["reason"]
        )


class TraumaClear(TraumaByHand):
    named = "trauma-clear"
    change = staticmethod(actions.gm_clear_trauma)


class Harm(SheetStep):
    named = "harm"
    control = "harm"
    level = steps.number()
    description = steps.text(HARM_TEXT_MAX)

    def execute(self):
        data = self.cleaned_data
        return actions.add_harm(
            character=self.character, level=data["level"], description=data["description"]
        )


class HarmClear(SheetStep):
    named = "harm-clear"
    control = "harm"
    level = steps.number()
    index = steps.number()

    def execute(self):
        data = self.cleaned_data
        return actions.clear_harm(
            character=self.character, level=data["level"], index=data["index"]
        )


class Healing(SheetStep):
    named = "healing"
    control = "healing"
    ticks = steps.number()

    def execute(self):
        return actions.tick_healing(character=self.character, ticks=self.cleaned_data["ticks"])


class Armor(SheetStep):
    named = "armor"
    control = "armor"
    box = name()

    def execute(self):
        return actions.use_armor(character=self.character, box=self.cleaned_data["box"])


class ArmorRestore(SheetStep):
    named = "armor-restore"
    control = "armor"
    downtime = steps.flag()

    def execute(self):
        return actions.restore_armor(
            character=self.character, downtime=self.cleaned_data["downtime"]
        )


class Load(SheetStep):
    named = "load"
    control = "load"
    level = name()

    def execute(self):
        return actions.set_load(character=self.character, level=self.cleaned_data["level"])


class Item(SheetStep):
    named = "item"
    # Not "items": the template reads `errors.items` as the dict's own items.
    control = "gear"
    item = steps.OneOf()
    checked = steps.flag()

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["item"].queryset = queries.own_items(self.character)

    def execute(self):
        return actions.check_item(
            character=self.character,
            item_id=self._mine("item"),
            checked=self.cleaned_data["checked"],
        )


class Action(SheetStep):
    named = "action"
    action = name()
    rating = steps.number()

    def refused_at(self) -> str:
        return self._control("action", "action", char_rules.ACTIONS, "action_hunt")

    def execute(self):
        return actions.set_action(
            character=self.character,
            action=self.cleaned_data["action"],
            rating=self.cleaned_data["rating"],
            mastery=mastery_for(self.character.table),
        )


class Xp(SheetStep):
    named = "xp"
    track = name()
    amount = steps.number()

    def refused_at(self) -> str:
        return self._control("xp", "track", XP_TRACKS, "xp_playbook")

    def execute(self):
        data = self.cleaned_data
        return actions.mark_xp(character=self.character, track=data["track"], amount=data["amount"])


class AdvanceAbility(SheetStep):
    named = "advance-ability"
    control = "advance_playbook"
    ability = steps.OneOf()

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["ability"].queryset = queries.ability_advance_choices(self.character)

    def execute(self):
        return actions.take_ability_advance(
            character=self.character, ability_id=self._mine("ability")
        )


class CrewDot(SheetStep):
    named = "crew-dot"
    control = "crew_dot"
    ability = name()
    action = name()

    def execute(self):
        data = self.cleaned_data
        return actions.take_crew_dot(
            character=self.character, ability=data["ability"], action=data["action"]
        )


class Expertise(SheetStep):
    named = "expertise"
    control = "expertise"
    action = name()

    def execute(self):
        again = can_take_sheet_step(self.by, self.character, EXPERTISE_AGAIN)
        return actions.choose_expertise(
            character=self.character, action=self.cleaned_data["action"], by_gm=again
        )


class AdvanceAction(SheetStep):
    named = "advance-action"
    action = name()

    def refused_at(self) -> str:
        return self._control("advance", "attribute", XP_TRACKS, "advance_playbook")

    def execute(self):
        return actions.take_action_advance(
            character=self.character,
            action=self.cleaned_data["action"],
            mastery=mastery_for(self.character.table),
        )


class Coin(SheetStep):
    named = "coin"
    control = "coin"
    amount = steps.number()

    def execute(self):
        return actions.add_coin(character=self.character, amount=self.cleaned_data["amount"])


class Stash(SheetStep):
    named = "stash"
    control = "stash"
    amount = steps.number()

    def execute(self):
        return actions.stash_coin(character=self.character, amount=self.cleaned_data["amount"])


class Withdraw(SheetStep):
    named = "withdraw"
    control = "stash"
    coin = steps.number()

    def execute(self):
        return actions.withdraw_stash(character=self.character, coin=self.cleaned_data["coin"])


class Stance(SheetStep):
    named = "stance"
    control = "contacts"
    contact = steps.OneOf()
    stance = name()

    def __init__(self, data, **context):
        super().__init__(data, **context)
        self.fields["contact"].queryset = queries.own_contacts(self.character)

    def execute(self):
        return actions.set_contact_stance(
            character=self.character,
            contact_id=self._mine("contact"),
            stance=self.cleaned_data["stance"],
        )


class Notes(SheetStep):
    named = "notes"
    control = "notes"
    notes = steps.text(NOTES_MAX)

    def execute(self):
        return actions.update_details(character=self.character, notes=self.cleaned_data["notes"])


class State(SheetStep):
    named = "state"
    control = "state"
    state = name()

    def question(self) -> str:
        # Read from the post as sent, before any parse: who may ask comes first.
        return MARK_DEAD if self.data.get("state") == "dead" else self.named

    def execute(self):
        return actions.set_state(character=self.character, state=self.cleaned_data["state"])


class Resist(SheetStep):
    named = "resist"
    control = "resist"
    attribute = name()

    def execute(self):
        return actions.resist(
            character=self.character,
            roller=self.by.user,
            attribute=self.cleaned_data["attribute"],
        )


class Vice(SheetStep):
    named = "vice"
    control = "vice"

    def execute(self):
        return actions.indulge_vice(character=self.character, roller=self.by.user)


class GmNote(SheetStep):
    named = "gm-note"
    control = "gm_note"
    text = steps.text(NOTES_MAX)

    def execute(self):
        return actions.set_gm_note(character=self.character, text=self.cleaned_data["text"])


SHEET_STEPS: dict[str, type[SheetStep]] = {
    step.named: step
    for step in (
        GmNote,
        Stress,
        SetStress,
        Trauma,
        TraumaByHand,
        TraumaClear,
        Harm,
        HarmClear,
        Healing,
        Armor,
        ArmorRestore,
        Load,
        Item,
        Action,
        Xp,
        AdvanceAbility,
        CrewDot,
        Expertise,
        AdvanceAction,
        Coin,
        Stash,
        Withdraw,
        Stance,
        Notes,
        State,
        Resist,
        Vice,
    )
}


def sheet_steps_for(membership, character) -> frozenset[str]:
    """The steps (and MARK_DEAD, EXPERTISE_AGAIN) this member may take on this sheet: the
    controls the sheet draws for them, asked of the same predicate as the step's view."""
    return frozenset(
        question
        for question in (*SHEET_STEPS, MARK_DEAD, EXPERTISE_AGAIN)
        if can_take_sheet_step(membership, character, question)
    )
