"""What every step of a shared roll shares: the one way it is taken (`roll_step`: the
roll locked, who may, the guards on its state), the field changes it makes (which undo
reads back) and the event it writes.

Same contract for every step module (actions, group, outcome, undo): one transaction
per step, a RollEvent with every field it changed, the push after commit.
"""

from contextlib import contextmanager

from django.db import transaction
from django.utils.translation import gettext_noop

from blades.rules import character as char_rules
from blades.rules import crew as crew_rules
from blades.rules import flow as rules
from blades.rules.errors import RuleError
from blades.rules.words import Joined, Term, Words
from characters import actions as sheet
from characters.models import Character
from crews.models import Crew
from sessions import actions, audience
from sessions.models import Clock, Membership

from . import access, live
from .models import ActionRoll, Consequence, RollEvent

Step = ActionRoll.Step
# What a roll may change on a sheet, and so what undo puts back.
TRACKED = (
    "stress",
    "trauma_pending",
    "harm",
    "healing",
    "armor_used",
    "heavy_used",
    "special_used",
    *sheet.XP_FIELDS.values(),
    *sheet.ADVANCE_FIELDS.values(),
)
# Each field a step changes, as the roll's record names it to its reader.
FIELD_LABELS = {
    "stress": gettext_noop("Stress"),
    "trauma_pending": gettext_noop("Trauma pending"),
    "harm": gettext_noop("Harm"),
    "healing": gettext_noop("Healing clock"),
    "armor_used": gettext_noop("Armor"),
    "heavy_used": gettext_noop("Heavy armor"),
    "special_used": gettext_noop("Special armor"),
    "playbook_xp": gettext_noop("Playbook xp"),
    "insight_xp": gettext_noop("Insight xp"),
    "prowess_xp": gettext_noop("Prowess xp"),
    "resolve_xp": gettext_noop("Resolve xp"),
    "playbook_advances": gettext_noop("Playbook advances"),
    "insight_advances": gettext_noop("Insight advances"),
    "prowess_advances": gettext_noop("Prowess advances"),
    "resolve_advances": gettext_noop("Resolve advances"),
    "heat": gettext_noop("Heat"),
    "wanted": gettext_noop("Wanted level"),
    "filled": gettext_noop("Segments filled"),
}
# What a stress note adds when the stress overflowed into trauma.
TRAUMA = gettext_noop(", trauma!")
# "Ada takes 2 stress": at the roll, and at Rook's Gambit.
STRESS_TAKEN = gettext_noop("%(name)s takes %(stress)s stress%(trauma)s")


class Changes(list):
    """The field changes one step makes, as RollEvent.changes stores them."""

    def on_character(self, character: Character, change, **kwargs):
        # Locked, so the recorded change is this step's alone and undo can reverse it.
        before = Character.objects.select_for_update().filter(pk=character.pk).values(*TRACKED)
        before = before.get()
        try:
            result = change(character=character, **kwargs)
        except ValueError as error:  # a sheet value the arithmetic cannot take
            raise RuleError(str(error)) from error
        after = Character.objects.filter(pk=character.pk).values(*TRACKED).get()
        self.extend(
            {
                "character": character.pk,
                "who": character.name,
                "field": f,
                "before": before[f],
                "after": after[f],
            }
            for f in TRACKED
            if before[f] != after[f]
        )
        return result

    def stress(self, character: Character, amount: int) -> Term:
        """Mark stress; returns a note for the log when it overflowed into trauma."""
        self.on_character(character, sheet.mark_stress, amount=amount)
        overflowed = any(
            c.get("character") == character.pk and c["field"] == "trauma_pending" for c in self
        )
        return Term(TRAUMA if overflowed else "")

    def set_fields(self, character: Character, **fields) -> None:
        self.on_character(character, sheet.write, **fields)

    def on_crew(self, crew: Crew, change, **kwargs) -> None:
        """Heat and wanted level through the crew's own books (crews.actions)."""
        books = Crew.objects.select_for_update().filter(pk=crew.pk).values("heat", "wanted")
        before = books.get()
        change(crew=crew, **kwargs)
        after = Crew.objects.filter(pk=crew.pk).values("heat", "wanted").get()
        self.extend(
            {"crew": crew.pk, "who": crew.name, "field": f, "before": before[f], "after": after[f]}
            for f in ("heat", "wanted")
            if before[f] != after[f]
        )

    def heat_moved(self, crew: Crew) -> int:
        """How far these changes moved the crew along the heat track (rules.crew)."""
        delta = {"heat": 0, "wanted": 0}
        for change in self:
            if change.get("crew") == crew.pk:
                delta[change["field"]] += change["after"] - change["before"]
        return crew_rules.heat_steps(delta["heat"], delta["wanted"])

    def tick(self, clock: Clock, by: int) -> int:
        """Tick (or untick) a clock within its segments; returns how far it moved."""
        before = Clock.objects.filter(pk=clock.pk).values_list("filled", flat=True).get()
        clock = actions.tick_clock(clock=clock, by=by)
        if clock.filled != before:
            self.append(
                {
                    "clock": clock.pk,
                    "who": audience.ref("clock", clock),
                    "field": "filled",
                    "before": before,
                    "after": clock.filled,
                }
            )
        return clock.filled - before

    def pay_at_the_roll(
        self, character: Character, terms: rules.RollTerms, assister_id: int | None
    ) -> list[Words]:
        """What rolling costs, paid when the dice fall (`terms`, from rules.flow.resolve):
        the roller's stress, the assister's, and a desperate roll's xp. Notes for the log."""
        notes = []
        if terms.stress:
            trauma = self.stress(character, terms.stress)
            notes.append(
                Words(STRESS_TAKEN, name=character.name, stress=terms.stress, trauma=trauma)
            )
        if terms.assist_stress:
            helper = Character.objects.get(pk=assister_id)
            trauma = self.stress(helper, terms.assist_stress)
            notes.append(
                Words(
                    gettext_noop("%(name)s takes %(stress)s stress for assisting%(trauma)s"),
                    name=helper.name,
                    stress=terms.assist_stress,
                    trauma=trauma,
                )
            )
        if terms.xp:
            self.on_character(character, sheet.mark_xp, track=terms.xp_track, amount=terms.xp)
            notes.append(
                Words(
                    gettext_noop("%(name)s marks %(track)s xp"),
                    name=character.name,
                    track=Term(terms.xp_track.capitalize()),
                )
            )
        return notes


def stored_harm(harm: char_rules.Harm) -> dict[str, list[str]]:
    return {str(level): list(entries) for level, entries in harm.items()}


def locked_roll(roll: ActionRoll) -> ActionRoll:
    return (
        ActionRoll.objects.select_for_update(of=("self",))
        .select_related("character")
        .get(pk=roll.pk)
    )


def _locked(subject: ActionRoll | Consequence) -> ActionRoll | Consequence:
    if isinstance(subject, ActionRoll):
        return locked_roll(subject)
    return (
        Consequence.objects.select_for_update(of=("self",))
        .select_related("roll", "character", "clock")
        .get(pk=subject.pk)
    )


@contextmanager
def roll_step(subject, *, by: Membership, taken: str, at: str = Step.SETUP, check=None):
    """The one way a step is taken on a roll, or on one of its consequences: `subject`
    (for undo, a function that finds the roll once the transaction is open). In one
    transaction, the subject locked and read again, so that each question is asked of
    the roll as it is now: who may take step `taken` (rolls.access, 403 in the
    question's own words); whether the roll is at step `at` (before the dice unless
    said); the step's own `check(subject, viewer)`, whose refusals name what is wrong;
    last whether the step is open on the roll (the panel's question, whose refusal
    says less). Gives the locked subject and the viewer; the body makes the step's
    changes and records them."""
    with transaction.atomic():
        subject = _locked(subject() if callable(subject) else subject)
        viewer = access.viewer_of(by)
        access.require_may(viewer, subject, taken)
        require_step(subject.roll if isinstance(subject, Consequence) else subject, at)
        if check is not None:
            check(subject, viewer)
        access.require_open(subject, viewer, taken)
        yield subject, viewer


def record(roll: ActionRoll, by: Membership, text: Words | Joined, changes=()) -> None:
    RollEvent.objects.create(roll=roll, actor_id=by.user_id, text=text, changes=list(changes))
    live.push_flow(roll)


def require_step(roll: ActionRoll, at: str) -> None:
    if roll.step != at:
        if roll.step == Step.SETUP:
            raise RuleError(gettext_noop("The dice have not been rolled yet."))
        if roll.step == Step.CONSEQUENCES:
            raise RuleError(gettext_noop("The dice are already rolled."))
        raise RuleError(CLOSED[roll.step])


# A whole sentence per closed step, not a translated label lowercased into another.
CLOSED = {
    Step.DONE: gettext_noop("This roll is finished."),
    Step.CANCELLED: gettext_noop("This roll is cancelled."),
    Step.UNDONE: gettext_noop("This roll is undone."),
}


def require_called(roll: ActionRoll) -> None:
    """The GM sets position and effect, then the dice (001 §Action Roll): no roll before
    the GM's call, or the GM's word that the roll goes as proposed."""
    if not roll.called:
        raise RuleError(gettext_noop("Waiting for the GM to set position and effect."))


def require_ready(roll: ActionRoll) -> None:
    """Before anyone's dice: the flashback priced, and the GM's call."""
    if roll.flashback and roll.flashback_cost is None:
        raise RuleError(gettext_noop("The GM sets the flashback's stress cost first."))
    require_called(roll)


def require_fit(character: Character) -> None:
    """Only an active character who has not marked their last trauma rolls or is chosen
    for a roll."""
    sheet.require_active(character)
    char_rules.check_fit_to_roll(character.name, character.traumas, character.trauma_max)
