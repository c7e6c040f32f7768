"""Every change to a character: one transaction each, then the push on commit.

Each action re-reads the character inside its transaction (a row lock on PostgreSQL;
SQLite's IMMEDIATE transactions already let one writer in at a time), works out the
new values with blades.rules, and writes back only the columns it changed. So two
people editing different fields at once never undo each other, and counters never
pass their limits however fast the clicks come. A move the rules forbid raises
RuleError, and nothing is written.
"""

from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from blades import content
from blades.rules import abilities as ability_rules
from blades.rules import character as rules
from blades.rules import dice
from blades.rules.errors import RuleError
from blades.rules.rolls import RollKind, summarize
from blades.rules.rolls import indulge_vice as read_vice_roll
from blades.rules.rolls import resistance_stress as read_resistance
from blades.rules.words import Joined, Named, Term, Words
from sessions.actions import SYSTEM_RNG, record_roll
from sessions.models import Membership, Roll

from . import foundry_import, wording
from .forms import StepForm, check_draft
from .foundry import Sheet
from .live import push_character
from .models import (
    PLAYBOOK_ANSWERS,
    WIZARD_STEPS,
    Character,
    CharacterAbility,
    CharacterItem,
    Contact,
    Draft,
    GmNote,
    Item,
    Option,
    Playbook,
    PlaybookFriend,
    SpecialAbility,
)
from .queries import ability_advance_choices, draft_playbook, sheet_items
from .signals import sheet_written

XP_FIELDS = {"playbook": "playbook_xp", **{attr: f"{attr}_xp" for attr in rules.ATTRIBUTES}}
ADVANCE_FIELDS = {track: field.replace("_xp", "_advances") for track, field in XP_FIELDS.items()}
DETAIL_FIELDS = (
    "name",
    "alias",
    "look",
    "heritage_detail",
    "background_detail",
    "vice_purveyor",
    "notes",
)


def _locked(character: Character) -> Character:
    return Character.objects.select_for_update().get(pk=character.pk)


def _write(
    character: Character, *, reason: str = "", cause: tuple[str, int] | None = None, **fields
) -> Character:
    """Write just these columns and keep the in-memory object in step.

    Every change also moves the sheet's revision on: an open sheet compares it with the
    one the live signal carries, and fetches itself again only when the change is news
    to it (its own change already came back in the response). Called with no fields
    when the change is in a related row (an item, a contact). `reason` is the GM's word
    for a change made by hand, `cause` the rules' (characters/signals.py), for the
    journal."""
    Character.objects.filter(pk=character.pk).update(**fields, revision=F("revision") + 1)
    before = {name: getattr(character, name) for name in fields}
    for name, value in fields.items():
        setattr(character, name, value)
    sheet_written.send(
        sender=Character, character=character, before=before, reason=reason, cause=cause
    )
    character.revision = Character.objects.values_list("revision", flat=True).get(pk=character.pk)
    push_character(character)
    return character


def write(*, character: Character, **fields) -> Character:
    """Write sheet values worked out elsewhere (harm a roll's protection or resistance
    moved, what the GM's undo puts back): the one write, so its signal and push go with
    it on every path."""
    with transaction.atomic():
        return _write(_locked(character), **fields)


# A whole sentence per state and per load: a state's translated name lowercased into
# another sentence is English grammar in the i18n code (and guesses a gender: "muerta").
NOT_ACTIVE = {
    Character.State.RETIRED: gettext_noop("%(name)s is retired."),
    Character.State.DEAD: gettext_noop("%(name)s is dead."),
}
OVERLOADED = {
    Character.Load.LIGHT: gettext_noop(
        "That would be %(total)s load; your light load is %(limit)s."
    ),
    Character.Load.NORMAL: gettext_noop(
        "That would be %(total)s load; your normal load is %(limit)s."
    ),
    Character.Load.HEAVY: gettext_noop(
        "That would be %(total)s load; your heavy load is %(limit)s."
    ),
}


def require_active(character: Character) -> None:
    """Only an active character acts (a retired or dead one is kept, read-only)."""
    if not character.active:
        raise RuleError(NOT_ACTIVE[character.state], name=character.name)


def _require_fit(character: Character) -> None:
    """The sheet's own rolls are refused as the table's are (rolls.changes.require_fit):
    a character who must retire makes no more rolls."""
    require_active(character)
    rules.check_fit_to_roll(character.name, character.traumas, character.trauma_max)


def _has(character: Character, flag: str) -> bool:
    return CharacterAbility.objects.filter(
        character=character, **{f"ability__{flag}": True}
    ).exists()


def _stress_fields(character: Character, amount: int) -> dict:
    return _trauma_fields(
        character, rules.mark_stress(character.stress, amount, character.stress_max)
    )


def _trauma_fields(character: Character, change: rules.StressChange) -> dict:
    fields: dict = {"stress": change.stress}
    if change.trauma_triggered:
        fields["trauma_pending"] = character.trauma_pending + 1
        fields["vice_satisfied"] = True
    return fields


# --- Stress, trauma, harm -------------------------------------------------------------


def mark_stress(*, character: Character, amount: int, cause: str = "") -> Character:
    """Mark (or clear) stress; marking past the last box is trauma and resets stress.
    `cause`: why the rules mark it, where no roll tells it (characters/signals.py)."""
    with transaction.atomic():
        character = _locked(character)
        require_active(character)
        told = (cause, amount) if cause else None
        return _write(character, cause=told, **_stress_fields(character, amount))


def set_stress(*, character: Character, stress: int) -> Character:
    """Set the track to a value: marking the last box is trauma, as on a roll."""
    with transaction.atomic():
        character = _locked(character)
        change = rules.set_stress(character.stress, stress, character.stress_max)
        return _write(character, **_trauma_fields(character, change))


def suffer_trauma(*, character: Character) -> Character:
    """Trauma that comes without stress (a bad time in prison): the player chooses the
    condition, and it satisfies the vice like any trauma."""
    with transaction.atomic():
        character = _locked(character)
        return _write(character, trauma_pending=character.trauma_pending + 1, vice_satisfied=True)


def gm_mark_trauma(*, character: Character, condition: str, reason: str) -> Character:
    """The GM marks a trauma condition by hand (trauma the app did not count), saying why."""
    reason = _reason(reason)
    with transaction.atomic():
        character = _locked(character)
        traumas = rules.add_trauma(character.traumas, condition, character.trauma_max)
        return _write(character, reason=reason, traumas=list(traumas), vice_satisfied=True)


def gm_clear_trauma(*, character: Character, condition: str, reason: str) -> Character:
    """The GM takes a trauma condition back (marked in error), saying why."""
    reason = _reason(reason)
    with transaction.atomic():
        character = _locked(character)
        traumas = rules.remove_trauma(character.traumas, condition)
        return _write(character, reason=reason, traumas=list(traumas))


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise RuleError(gettext_noop("Say why, for the journal."))
    return reason


def clear_vice_satisfied(*, character: Character) -> Character:
    """A downtime has used up the vice that trauma satisfied."""
    with transaction.atomic():
        return _write(_locked(character), vice_satisfied=False)


def choose_trauma(*, character: Character, condition: str) -> Character:
    with transaction.atomic():
        character = _locked(character)
        if not character.trauma_pending:
            raise RuleError(gettext_noop("There is no trauma to choose right now."))
        traumas = rules.add_trauma(character.traumas, condition, character.trauma_max)
        return _write(character, traumas=list(traumas), trauma_pending=character.trauma_pending - 1)


def add_harm(*, character: Character, level: int, description: str) -> rules.HarmResult:
    with transaction.atomic():
        character = _locked(character)
        result = rules.add_harm(character.harm, level, description)
        # New harm resets the healing clock.
        _write(character, harm=_stored(result.harm), healing=0)
    return result


def clear_harm(*, character: Character, level: int, index: int) -> Character:
    with transaction.atomic():
        character = _locked(character)
        return _write(character, harm=_stored(rules.clear_harm(character.harm, level, index)))


def vigorous(character: Character) -> bool:
    return CharacterAbility.objects.filter(character=character, ability__key="vigorous").exists()


def tick_healing(*, character: Character, ticks: int) -> Character:
    """Vigorous heals on a 3-segment clock, everyone else on 4."""
    with transaction.atomic():
        character = _locked(character)
        segments = rules.healing_segments(vigorous(character))
        # Ticks marked before Vigorous was taken may not fit the shorter clock.
        healing, harm = rules.tick_healing(
            min(character.healing, segments - 1), ticks, character.harm, segments
        )
        return _write(character, healing=healing, harm=_stored(harm))


def _stored(harm: rules.Harm) -> dict[str, list[str]]:
    return {str(level): list(entries) for level, entries in harm.items()}


# --- Armor and load -------------------------------------------------------------------


def _armor_carried(character: Character) -> set[str]:
    """The kinds of armor checked on the current load ("armor", "heavy")."""
    return set(
        CharacterItem.objects.filter(character=character, checked=True)
        .exclude(armor="")
        .values_list("armor", flat=True)
    )


def use_armor(*, character: Character, box: str) -> Character:
    with transaction.atomic():
        character = _locked(character)
        used = {b for b in rules.ARMOR_BOXES if getattr(character, f"{b}_used")}
        carried = _armor_carried(character) if character.load else set()
        rules.use_armor(
            used, box, armor="armor" in carried, heavy="heavy" in carried,
            special=_has(character, "special_armor"),
        )  # fmt: skip
        return _write(character, **{f"{box}_used": True})


def restore_armor(*, character: Character, downtime: bool = False) -> Character:
    """Downtime restores special armor; choosing the next score's load restores all."""
    with transaction.atomic():
        character = _locked(character)
        used = {b for b in rules.ARMOR_BOXES if getattr(character, f"{b}_used")}
        left = rules.restore_armor(used, downtime=downtime)
        return _write(character, **{f"{b}_used": b in left for b in rules.ARMOR_BOXES})


def set_load(*, character: Character, level: str) -> Character:
    """Choosing a load starts a score: armor is restored and items carried on the last
    score are put down. A character's first load has no last score: what it carries
    came with it from a Foundry export, and stays."""
    rules.load_limit(level, mule=False)  # refuses anything but light, normal, heavy
    with transaction.atomic():
        character = _locked(character)
        if character.load:
            CharacterItem.objects.filter(character=character).update(checked=False)
        return _write(
            character,
            load=level,
            **{f"{b}_used": False for b in rules.ARMOR_BOXES},
        )


def check_item(*, character: Character, item_id: int, checked: bool) -> Character:
    with transaction.atomic():
        character = _locked(character)
        item = CharacterItem.objects.get(pk=item_id, character=character)
        if checked and not item.checked:
            if not character.load:
                raise RuleError(
                    gettext_noop("Choose a load (light, normal or heavy) before checking items.")
                )
            carried = CharacterItem.objects.filter(character=character, checked=True)
            loads = [i.load for i in carried] + [item.load]
            total = rules.load_total(loads)
            mule = _has(character, "mule")
            bonus = character.load_bonus(loads)
            if not rules.can_carry(character.load, mule, total, bonus):
                limit = rules.load_limit(character.load, mule, bonus)
                raise RuleError(
                    OVERLOADED.get(
                        character.load,
                        gettext_noop("That would be %(total)s load; your load is %(limit)s."),
                    ),
                    total=total,
                    limit=limit,
                )
        CharacterItem.objects.filter(pk=item.pk).update(checked=checked)
        return _write(character)


# --- Actions, xp and advances ---------------------------------------------------------


def set_action(*, character: Character, action: str, rating: int, mastery: bool) -> Character:
    if action not in rules.ACTIONS:
        raise RuleError(gettext_noop("“%(action)s” is not an action."), action=action)
    rules.set_action_rating(rating, mastery)
    with transaction.atomic():
        return _write(_locked(character), **{action: rating})


def mark_xp(*, character: Character, track: str, amount: int) -> Character:
    if track not in XP_FIELDS:
        raise RuleError(gettext_noop("“%(track)s” is not an xp track."), track=track)
    with transaction.atomic():
        character = _locked(character)
        change = rules.mark_xp(getattr(character, XP_FIELDS[track]), amount, track)
        advances = getattr(character, ADVANCE_FIELDS[track]) + change.advances
        return _write(character, **{XP_FIELDS[track]: change.xp, ADVANCE_FIELDS[track]: advances})


def take_ability_advance(*, character: Character, ability_id: int) -> Character:
    """A full playbook track buys a special ability from the playbook's list; the list's
    Veteran buys one from another playbook instead ("take an ability from another
    source", SRD_FACTS §5)."""
    with transaction.atomic():
        character = _locked(character)
        if not character.playbook_advances:
            raise RuleError(
                gettext_noop("Fill the playbook xp track to earn a new special ability.")
            )
        ability = ability_advance_choices(character).filter(pk=ability_id).first()
        if ability is None:
            raise RuleError(
                gettext_noop(
                    "Choose one of your playbook's special abilities (or, as a Veteran, one of "
                    "another playbook's)."
                )
            )
        if CharacterAbility.objects.filter(character=character, ability=ability).exists():
            raise RuleError(
                gettext_noop("You already have %(ability)s."),
                ability=wording.ability_text(ability, "name"),
            )
        CharacterAbility.objects.create(character=character, ability=ability)
        return _write(character, playbook_advances=character.playbook_advances - 1)


def take_crew_dot(*, character: Character, ability: str, action: str) -> Character:
    """Deadly and the crew types' other first abilities: each PC adds one dot."""
    with transaction.atomic():
        character = _locked(character)
        require_active(character)
        rating = ability_rules.crew_dot(
            ability, action, character.ratings.get(action, 0),
            crew_abilities=character.crew_abilities, taken=character.crew_dots,
        )  # fmt: skip
        return _write(character, **{action: rating}, crew_dots=[*character.crew_dots, ability])


def choose_expertise(*, character: Character, action: str, by_gm: bool = False) -> Character:
    """Expertise: the action chosen with it, kept on the ability's row; the group actions
    the character leads with that action cap their stress (rolls/group.py)."""
    with transaction.atomic():
        character = _locked(character)
        row = (
            CharacterAbility.objects.select_for_update()
            .filter(character=character, ability__key=ability_rules.EXPERTISE)
            .first()
        )
        action = ability_rules.expertise_choice(
            action, has_it=row is not None, chosen=row.choice if row else "", by_gm=by_gm
        )
        row.choice = action
        row.save(update_fields=["choice"])
        return _write(character)


def take_action_advance(*, character: Character, action: str, mastery: bool) -> Character:
    """A full attribute track buys one action dot within that attribute."""
    with transaction.atomic():
        character = _locked(character)
        attribute = rules.attribute_of(action)
        field = ADVANCE_FIELDS[attribute]
        if not getattr(character, field):
            raise RuleError(
                gettext_noop("Fill the %(attribute)s xp track to add a dot there."),
                attribute=Term(attribute.capitalize()),
            )
        rating = rules.set_action_rating(getattr(character, action) + 1, mastery)
        return _write(character, **{action: rating, field: getattr(character, field) - 1})


# --- Coin -----------------------------------------------------------------------------


def add_coin(*, character: Character, amount: int) -> Character:
    with transaction.atomic():
        character = _locked(character)
        return _write(character, coin=rules.add_coin(character.coin, amount))


def receive_coin(*, character: Character, amount: int) -> Character:
    """Coin handed over by the crew: into the purse, and what it cannot hold into the stash."""
    with transaction.atomic():
        character = _locked(character)
        require_active(character)
        coin, stash = rules.receive_coin(character.coin, character.stash, amount)
        return _write(character, coin=coin, stash=stash)


def stash_coin(*, character: Character, amount: int) -> Character:
    with transaction.atomic():
        character = _locked(character)
        coin, stash = rules.stash_coin(character.coin, character.stash, amount)
        return _write(character, coin=coin, stash=stash)


def gain_stash(*, character: Character, amount: int) -> Character:
    """Profits paid into the stash (a crew advance); a full stash simply stays full."""
    with transaction.atomic():
        character = _locked(character)
        return _write(character, stash=rules.add_stash(character.stash, amount))


def withdraw_stash(*, character: Character, coin: int) -> Character:
    with transaction.atomic():
        character = _locked(character)
        coin, stash = rules.withdraw_stash(character.coin, character.stash, coin)
        return _write(character, coin=coin, stash=stash)


# --- Words ----------------------------------------------------------------------------


def update_details(*, character: Character, **details: str) -> Character:
    unknown = set(details) - set(DETAIL_FIELDS)
    if unknown:
        raise ValueError(f"not a detail field: {sorted(unknown)}")
    with transaction.atomic():
        return _write(_locked(character), **details)


def set_contact_stance(*, character: Character, contact_id: int, stance: str) -> Character:
    if stance not in Contact.Stance.values:
        raise RuleError(gettext_noop("Choose close friend, rival or acquaintance."))
    with transaction.atomic():
        Contact.objects.filter(pk=contact_id, character=character).update(stance=stance)
        return _write(character)


def set_gm_note(*, character: Character, text: str) -> None:
    # Never pushed: the GM's own page shows it, nobody else's.
    GmNote.objects.update_or_create(character=character, defaults={"text": text})


def set_state(*, character: Character, state: str) -> Character:
    if state not in Character.State.values:
        raise RuleError(gettext_noop("A character is active, retired or dead."))
    with transaction.atomic():
        character = _locked(character)
        # Characters waiting for their player (owner None) do not share one.
        if state == Character.State.ACTIVE and not character.active and character.owner_id:
            taken = Character.objects.filter(
                table_id=character.table_id, owner_id=character.owner_id, state="active"
            )
            if taken.exists():
                raise RuleError(
                    gettext_noop("The player already has an active character at this table.")
                )
        return _write(character, state=state)


def hand_over(*, character: Character, player) -> Character:
    """A character waiting for its player (a restored table's: its players are invited
    again) goes to a player at the table."""
    with transaction.atomic():
        character = _locked(character)
        if character.owner_id is not None:
            raise RuleError(gettext_noop("%(name)s already has a player."), name=character.name)
        seated = Membership.objects.filter(
            table_id=character.table_id, user=player, role=Membership.Role.PLAYER
        )
        if not seated.exists():
            raise RuleError(gettext_noop("%(player)s does not play at this table."), player=player)
        if (
            character.active
            and Character.objects.filter(
                table_id=character.table_id, owner=player, state="active"
            ).exists()
        ):
            raise RuleError(
                gettext_noop("%(player)s already has an active character at this table."),
                player=player,
            )
        return _write(character, owner=player)


# --- Rolls from the sheet -------------------------------------------------------------
# An action roll is never made here: the sheet's buttons start the table's shared roll
# (rolls/), where the GM sets position and effect. What the sheet rolls on its own are the
# rolls that need no GM: resistance and indulging a vice.


def resist(*, character: Character, roller, attribute: str, rng=SYSTEM_RNG) -> Roll:
    """Resist a consequence: the attribute's rating in dice, 6 minus the best die in
    stress (a critical clears one), trauma if the stress overflows."""
    with transaction.atomic():
        character = _locked(character)
        _require_fit(character)
        fields: dict = {}

        def read(result: dice.Roll) -> Words:
            fields.update(_stress_fields(character, read_resistance(result)))
            summary = summarize(RollKind.RESISTANCE, result)
            if "trauma_pending" in fields:
                return Words(gettext_noop("%(summary)s, trauma!"), summary=summary)
            return summary

        rating = rules.attribute_rating(character.ratings, attribute)
        bonus = ability_rules.resistance_bonus(
            attribute, character.ability_keys, character.crew_abilities
        )
        log = record_roll(
            table_id=character.table_id,
            roller=roller,
            kind=RollKind.RESISTANCE,
            pool=rating + sum(n for _, n in bonus),
            summary=read,
            note=Joined(
                "",
                [
                    Term(attribute.capitalize()),
                    *(
                        Words(gettext_noop(" (+%(dice)sd %(name)s)"), dice=n, name=name)
                        for name, n in bonus
                    ),
                ],
            ),
            character=character,
            rng=rng,
        )
        _write(character, **fields)
        return log


def indulge_vice(*, character: Character, roller, rng=SYSTEM_RNG) -> Roll:
    with transaction.atomic():
        character = _locked(character)
        _require_fit(character)
        cleared: list[int] = []

        def read(result: dice.Roll) -> Words:
            outcome = read_vice_roll(result, character.stress)
            cleared.append(outcome.cleared)
            summary = Words(gettext_noop("Clear %(stress)s stress"), stress=outcome.cleared)
            if outcome.overindulged:
                return Words(gettext_noop("%(summary)s, overindulged!"), summary=summary)
            return summary

        log = record_roll(
            table_id=character.table_id,
            roller=roller,
            kind=RollKind.VICE,
            pool=rules.vice_dice(character.ratings),
            summary=read,
            note=Named(character.vice.name, of="vices"),
            character=character,
            rng=rng,
        )
        _write(character, stress=character.stress - cleared[0])
        return log


# --- Creation -------------------------------------------------------------------------


def open_draft(*, table, user) -> Draft:
    """The player's draft (a new one on their first visit), on a step they may be on:
    every step after the first is built from the playbook, so without one it is the first."""
    draft, _ = Draft.objects.get_or_create(table=table, user=user)
    if draft.step not in WIZARD_STEPS or draft_playbook(draft, table) is None:
        draft.step = WIZARD_STEPS[0]
    return draft


def answer_step(
    *, draft: Draft, step: str, answers: dict[str, str], back: bool, accepted: bool
) -> bool:
    """Keep what was typed at a step, refused or not (going back and forth, or closing
    the tab, loses nothing), and move the draft: back a step, on to the next when the
    answers were accepted, or stay on this one. True when the last step was accepted:
    the character can be made."""
    if answers.get("playbook") and answers["playbook"] != draft.data.get("playbook"):
        for stale in PLAYBOOK_ANSWERS:
            draft.data.pop(stale, None)
    draft.data.update(answers)
    index = WIZARD_STEPS.index(step)
    finished = False
    if back:
        draft.step = WIZARD_STEPS[max(0, index - 1)]
    elif accepted and index + 1 < len(WIZARD_STEPS):
        draft.step = WIZARD_STEPS[index + 1]
    else:
        draft.step = step
        finished = accepted
    draft.save()
    return finished


def reopen_step(*, draft: Draft, step: str) -> Draft:
    """Send the player back to a step the final check refused (the playbook may have
    changed since it was answered)."""
    draft.step = step
    draft.save(update_fields=["step", "updated"])
    return draft


def create_from_draft(*, draft: Draft, choices: dict) -> Character:
    """Make the character of a finished draft; `choices` is every step's checked answers.
    The draft goes with the same transaction, so a failed creation keeps it."""
    choices = dict(choices)
    playbook = choices.pop("playbook")
    for chosen in ("heritage", "background", "vice", "ability", "close_friend", "rival"):
        choices[chosen] = choices[chosen].pk
    with transaction.atomic():
        character = create_character(
            table=draft.table, owner=draft.user, playbook=playbook, choices=choices
        )
        draft.delete()
    return character


@dataclass(frozen=True)
class Answered:
    """What a wizard post came to: the character made; or the step the final check sent
    the player back to, as its refused form; or neither (the draft moved or stayed)."""

    character: Character | None = None
    refused: StepForm | None = None


def take_wizard_step(
    *, draft: Draft, table, step: str, answers: dict[str, str], back: bool, accepted: bool
) -> Answered:
    """The wizard's one action for a post: keep the answers and move the draft; after the
    last step, check every answer again and make the character or reopen the step that
    no longer holds."""
    if not answer_step(draft=draft, step=step, answers=answers, back=back, accepted=accepted):
        return Answered()
    choices, refused, form = check_draft(draft, table)
    if refused is not None:
        reopen_step(draft=draft, step=refused)
        return Answered(refused=form)
    return Answered(character=create_from_draft(draft=draft, choices=choices))


def create_character(*, table, owner, playbook, choices: dict) -> Character:
    """Make the character the wizard described; `choices` is its validated answers."""
    with transaction.atomic():
        if Character.objects.filter(table=table, owner=owner, state="active").exists():
            raise RuleError(gettext_noop("Retire your current character before making another."))
        options = Option.objects.in_bulk(
            [choices["heritage"], choices["background"], choices["vice"]]
        )
        character = Character.objects.create(
            table=table,
            owner=owner,
            playbook=playbook,
            name=choices["name"],
            alias=choices.get("alias", ""),
            look=choices.get("look", ""),
            heritage=options[choices["heritage"]],
            heritage_detail=choices.get("heritage_detail", ""),
            background=options[choices["background"]],
            background_detail=choices.get("background_detail", ""),
            vice=options[choices["vice"]],
            vice_purveyor=choices.get("vice_purveyor", ""),
            **choices["ratings"],
        )
        CharacterAbility.objects.create(character=character, ability_id=choices["ability"])
        stances = {choices["close_friend"]: "friend", choices["rival"]: "rival"}
        Contact.objects.bulk_create(
            Contact(character=character, name=f.name, role=f.role, stance=stances.get(f.pk, ""))
            for f in playbook.friends.all()
        )
        CharacterItem.objects.bulk_create(
            CharacterItem(
                character=character, name=i.name, load=i.load, armor=i.armor, special=special
            )
            for i, special in sheet_items(playbook)
        )
        push_character(character, created=True)
    return character


def import_character(
    *,
    table,
    owner,
    sheet: Sheet,
    playbook: Playbook,
    heritage: Option,
    background: Option,
    vice: Option,
) -> Character:
    """Make the character a Foundry export describes, with the player's choices for what
    did not match; the sheet is matched again, so a problem found since the preview stops
    it. All of it or nothing, and the same push as a character made by hand."""
    found = foundry_import.match(sheet, table)
    if found.problems:
        raise RuleError(" ".join(found.problems))
    parts = foundry_import.parts_of(sheet, playbook, table)
    with transaction.atomic():
        if Character.objects.filter(table=table, owner=owner, state="active").exists():
            raise RuleError(gettext_noop("Retire your current character before importing another."))
        character = Character.objects.create(
            table=table,
            owner=owner,
            playbook=playbook,
            name=sheet.name,
            alias=sheet.alias,
            look=sheet.look,
            heritage=heritage,
            background=background,
            background_detail=sheet.background_detail,
            vice=vice,
            vice_purveyor=sheet.vice_purveyor,
            stress=sheet.stress,
            traumas=list(sheet.traumas),
            harm=dict(sheet.harm),
            healing=sheet.healing,
            **{f"{box}_used": box in sheet.armor_used for box in rules.ARMOR_BOXES},
            coin=sheet.coin,
            stash=sheet.stash,
            **sheet.ratings,
            **parts.xp,
        )
        CharacterAbility.objects.bulk_create(
            CharacterAbility(character=character, ability=a) for a in parts.abilities
        )
        for row in (*parts.contacts, *parts.items):
            row.character = character
        Contact.objects.bulk_create(parts.contacts)
        CharacterItem.objects.bulk_create(parts.items)
        push_character(character, created=True)
    return character


def create_custom_playbook(
    *,
    table,
    name: str,
    xp_trigger: str,
    primary: str,
    secondary: str,
    ability_keys: list[str],
    own_abilities: list[tuple[str, str]],
    friends: list[tuple[str, str]],
    items: list[tuple[str, int]],
) -> Playbook:
    """A GM's playbook for their table: 2 dots in the primary action, 1 in the secondary,
    abilities from the custom list (or written by hand), friends and items."""
    dots = rules.custom_playbook_dots(primary, secondary)
    listed = {a["key"]: a for a in content.custom_abilities()}
    unknown = [key for key in ability_keys if key not in listed]
    if unknown:
        raise RuleError(gettext_noop("Unknown abilities: %(names)s."), names=", ".join(unknown))
    with transaction.atomic():
        playbook = Playbook.objects.create(
            table=table,
            key=f"custom-{slugify(name)[:40]}",
            name=name,
            dots=dots,
            xp_trigger=xp_trigger,
        )
        abilities = [
            SpecialAbility(
                playbook=playbook,
                key=key,
                name=listed[key]["name"],
                description=listed[key]["text"],
                special_armor=listed[key].get("special_armor", False),
                mule=key == "mule",
            )
            for key in ability_keys
        ] + [
            SpecialAbility(playbook=playbook, key=slugify(n)[:60] or "own", name=n, description=t)
            for n, t in own_abilities
        ]
        for order, ability in enumerate(abilities):
            ability.order = order
        SpecialAbility.objects.bulk_create(abilities)
        PlaybookFriend.objects.bulk_create(
            PlaybookFriend(playbook=playbook, name=n, role=r, order=i)
            for i, (n, r) in enumerate(friends)
        )
        Item.objects.bulk_create(
            Item(playbook=playbook, name=n, load=load, order=i) for i, (n, load) in enumerate(items)
        )
    return playbook
