"""The GM's undo of the last finished roll: it takes back the roll's own changes.

Each RollEvent stores the field changes its step made. Undo reverses those changes,
not the old values, so whatever the table did after the roll survives: counters
(stress, xp and advances, clock segments, crew heat and wanted level) go back by the
roll's delta, atomically and within their tracks (blades.rules.undo); harm loses
exactly the entries the roll wrote and gets back the ones it moved away; any other
field (trauma pending, armor boxes, the healing clock) returns to its old value only
if it still holds what the roll left there. What undo could not put back is named in
its log line, so the GM can settle it by hand.
"""

from collections import defaultdict
from functools import partial

from django.utils.translation import gettext_noop

from blades.rules import character as char_rules
from blades.rules import crew as crew_rules
from blades.rules import undo as rules
from blades.rules.errors import RuleError
from blades.rules.words import Joined, Term, Words
from characters import actions as sheet
from characters.models import Character
from crews import actions as crew_actions
from crews.models import Crew
from sessions import audience
from sessions.models import Clock, Membership, Table

from . import log
from .access import require_may, viewer_of
from .changes import FIELD_LABELS, Changes, Step, record, roll_step, stored_harm
from .derived import last_finished
from .models import ActionRoll

# xp field → (advances field, track length): an xp track rolls over into advances.
XP_LADDERS = {
    xp: (sheet.ADVANCE_FIELDS[track], char_rules.track_length(track))
    for track, xp in sheet.XP_FIELDS.items()
}
ADVANCES = {advances for advances, _ in XP_LADDERS.values()}


def _roll_changes(roll: ActionRoll) -> tuple[dict, dict, dict]:
    """The roll's changes in order: per character and field, per clock, per crew."""
    characters: dict[int, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    clocks: dict[int, int] = defaultdict(int)
    crews: dict[int, dict[str, int]] = defaultdict(lambda: {"heat": 0, "wanted": 0})
    for event in roll.events.order_by("pk"):
        for change in event.changes:
            if "character" in change:
                characters[change["character"]][change["field"]].append(change)
            elif "clock" in change:
                clocks[change["clock"]] += change["after"] - change["before"]
            else:
                crews[change["crew"]][change["field"]] += change["after"] - change["before"]
    return characters, clocks, crews


def _delta(changes: list) -> int:
    return sum(c["after"] - c["before"] for c in changes)


def _reverse_character(character: Character, fields: dict[str, list]) -> tuple[dict, list[Words]]:
    """The values that take this roll's changes off the sheet as it is now, and notes
    for the GM about what could not be put back exactly."""
    name = character.name
    new: dict = {}
    notes: list[Words] = []
    for field, changes in fields.items():
        current = getattr(character, field)
        if field == "stress":
            back = rules.reverse_count(current, _delta(changes), 0, character.stress_max)
            new[field] = back.value
            if back.clamped:
                notes.append(
                    Words(
                        gettext_noop("%(name)s's stress stops at %(value)s"),
                        name=name,
                        value=back.value,
                    )
                )
        elif field in XP_LADDERS or field in ADVANCES:
            continue  # below, with the other half of the track
        elif field == "harm":
            harm, missing, unplaced = current, [], []
            for change in reversed(changes):
                back = rules.reverse_harm(harm, change["before"], change["after"])
                harm = back.harm
                missing += back.missing
                unplaced += back.unplaced
            first = changes[0]["before"]
            # Back where it was: keep the stored form too, so the sheet reads the same.
            new[field] = first if harm == char_rules.harm_rows(first) else stored_harm(harm)
            if missing:
                notes.append(
                    Words(
                        gettext_noop("%(name)s no longer had %(harm)s"),
                        name=name,
                        harm=Joined(", ", missing),
                    )
                )
            if unplaced:
                notes.append(
                    Words(
                        gettext_noop("no room to give %(name)s back %(harm)s"),
                        name=name,
                        harm=Joined(", ", unplaced),
                    )
                )
        elif current == changes[-1]["after"]:
            new[field] = changes[0]["before"]
        else:
            notes.append(
                Words(
                    gettext_noop("%(name)s: %(field)s changed since, left as it is"),
                    name=name,
                    field=Term(FIELD_LABELS[field]),
                )
            )
    for xp, (advances, length) in XP_LADDERS.items():
        if xp in fields or advances in fields:
            steps = rules.ladder_steps(
                _delta(fields.get(xp, [])), _delta(fields.get(advances, [])), length
            )
            back = rules.reverse_ladder(
                getattr(character, xp), getattr(character, advances), steps, length
            )
            new[xp], new[advances] = back.low, back.high
            if back.clamped:
                notes.append(
                    Words(
                        gettext_noop("%(name)s: %(field)s stops at %(value)s"),
                        name=name,
                        field=Term(FIELD_LABELS[xp]),
                        value=back.low,
                    )
                )
    return new, notes


def take_back_sheets(roll: ActionRoll, changes: Changes) -> list[Words]:
    """Take the roll's own changes off its characters' sheets as they are now (undo, and
    a cancel that leaves no cost); notes for what could not be put back exactly."""
    characters, _, _ = _roll_changes(roll)
    notes: list[Words] = []
    for character in Character.objects.select_for_update().filter(pk__in=characters):
        fields, character_notes = _reverse_character(character, characters[character.pk])
        notes += character_notes
        if fields:
            changes.set_fields(character, **fields)
    return notes


def _to_undo(table: Table, roll_id: int | None) -> ActionRoll:
    """The last finished roll, if it is still the one the GM saw on the button."""
    roll = last_finished(table)
    if roll is None:
        raise RuleError(gettext_noop("There is no finished roll to undo."))
    if roll_id is not None and roll.pk != roll_id:
        raise RuleError(
            gettext_noop("That roll is already undone, or another roll finished since.")
        )
    return roll


def undo_last(*, by: Membership, table: Table, roll_id: int | None = None) -> ActionRoll:
    """Take back what the last finished roll changed. `roll_id` is the roll the GM saw
    on the button: a second click (or a roll finished meanwhile) undoes nothing more.
    Who may is asked of the table first, so that only its GM learns whether there is a
    roll to undo; then of the roll, as of every step. Its step, `at`, is still done
    unless a concurrent undo got there first."""
    require_may(viewer_of(by), table, "undo")
    finding = partial(_to_undo, table, roll_id)
    with roll_step(finding, by=by, taken="undo", at=Step.DONE) as (roll, _):
        _, clocks, crews = _roll_changes(roll)
        changes = Changes()
        notes = take_back_sheets(roll, changes)
        # Where a clock stops tells how far it had run: not to players who do not see that.
        veiled: list[Joined] = []
        for clock in Clock.objects.filter(pk__in=clocks):
            if changes.tick(clock, -clocks[clock.pk]) != -clocks[clock.pk]:
                note = Words(
                    gettext_noop("%(clock)s stops at %(filled)s"),
                    clock=audience.ref("clock", clock),
                    filled=clock.filled,
                )
                if clock.progress_hidden:
                    veiled.append(audience.veiled(clock, Joined("", ["; ", note])))
                else:
                    notes.append(note)
        for crew in Crew.objects.filter(pk__in=crews):
            steps = crew_rules.heat_steps(crews[crew.pk]["heat"], crews[crew.pk]["wanted"])
            back = Changes()
            back.on_crew(crew, crew_actions.unwind_heat, steps=steps)
            if back.heat_moved(crew) != -steps:
                notes.append(
                    Words(
                        gettext_noop("%(crew)s's heat stops at the end of the track"),
                        crew=crew.name,
                    )
                )
            changes += back
        roll.step = Step.UNDONE
        roll.save(update_fields=["step"])
        log.undone(roll)
        text = Words(gettext_noop("GM undoes the roll: its changes are taken back"))
        if notes:
            text = Words(
                gettext_noop("GM undoes the roll: its changes are taken back except: %(notes)s"),
                notes=Joined("; ", notes),
            )
        if veiled:
            text = Joined("", [text, *veiled])
        record(roll, by, text, changes)
    return roll
