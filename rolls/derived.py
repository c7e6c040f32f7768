"""What a roll's rows add up to, read without writing: its bonus dice, pool and effect,
who takes part, the set up it draws on, the last finished roll, how far the panel has
gone. The steps (actions, group, outcome, undo) and the panel (queries) both read
these, so this module imports none of them."""

from django.db.models import Max
from django.utils.translation import gettext

from blades.rules import abilities as ability_rules
from blades.rules import flow as rules
from blades.rules.dice import Outcome
from blades.rules.rolls import Position, RollKind
from characters.models import Character
from characters.wording import ability_text
from crews.models import Crew
from sessions.models import Roll as SessionRoll

from .models import ActionRoll, RollEvent

Step = ActionRoll.Step


def bonuses_of(roll: ActionRoll) -> rules.Bonuses:
    setup = roll.setup_from
    return rules.Bonuses(
        assist=roll.assister_id is not None,
        assist_free=roll.assist_foresight,
        push_dice=roll.push_dice,
        bargain=roll.bargain_accepted,
        push_effect=roll.push_effect,
        push_act=roll.push_act,
        push_special=roll.push_special,
        ability_dice=roll.ability_dice,
        ability_effect=roll.ability_effect,
        setup_effect=bool(setup and setup.setup_benefit == "effect"),
        setup_position=bool(setup and setup.setup_benefit == "position"),
    )


def group_bonuses_of(roll: ActionRoll, participant: int) -> rules.Bonuses:
    """What one participant of a group action adds to their own roll."""
    entry = roll.group_bonuses.get(str(participant), {})
    return rules.group_member_bonuses(
        push=entry.get("push", False),
        bargain=bool(entry.get("bargain")),
        assisted=entry.get("assister") is not None,
        push_act=entry.get("act", False),
        free=entry.get("foresight", False),
        ability_dice=entry.get("ability_dice", 0),
    )


def group_assists(roll: ActionRoll) -> dict[int, int]:
    """Each assisted participant of a group action, with their assister."""
    return {
        int(pk): entry["assister"]
        for pk, entry in roll.group_bonuses.items()
        if entry.get("assister") is not None
    }


def foresight_used(helper: Character) -> int:
    """The assists `helper` made free with Foresight in this score: since the table's last
    engagement roll, which starts a score (ever, if no score has been played), in rolls
    neither cancelled nor undone."""
    start = (
        SessionRoll.objects.filter(table_id=helper.table_id, kind=RollKind.ENGAGEMENT)
        .values_list("created", flat=True)
        .first()
    )
    rolls = ActionRoll.objects.filter(table_id=helper.table_id).exclude(
        step__in=(Step.CANCELLED, Step.UNDONE)
    )
    if start is not None:
        rolls = rolls.filter(created__gte=start)
    single = rolls.filter(assister=helper, assist_foresight=True).count()
    in_groups = sum(
        1
        for bonuses in rolls.filter(kind=ActionRoll.Kind.GROUP).values_list(
            "group_bonuses", flat=True
        )
        for entry in bonuses.values()
        if entry.get("assister") == helper.pk and entry.get("foresight")
    )
    return single + in_groups


def special_armor_ability(character: Character) -> str:
    """The name, in the reader's language, of the character's ability that grants special
    armor while its box is unmarked, else "": what lets them pay a push with it."""
    if character.special_used:
        return ""
    taken = (row.ability for row in character.abilities.all() if row.ability.special_armor)
    return next((ability_text(ability, "name") for ability in taken), "")


def special_push_ability(roll: ActionRoll, character: Character) -> str:
    """The name (in the reader's language) of the ability whose special armor may pay
    this roll's push while its box is unmarked, else "": Mastermind's only when the
    roll gathers information."""
    if character.special_used:
        return ""
    taken = (
        row.ability
        for row in character.abilities.all()
        if row.ability.special_armor
        and ability_rules.special_push_allowed(
            row.ability.key, gather_information=roll.gather_information
        )
    )
    return next((ability_text(ability, "name") for ability in taken), "")


def took_daredevil(roll: ActionRoll, character: Character) -> bool:
    """Whether `character` rolled this desperate roll with Daredevil's +1d: the ability
    die, named for it, on their own roll (in a group action, their own entry). Its -1d
    goes with "any resistance rolls against consequences from your action" (000)."""
    if roll.as_position != Position.DESPERATE:
        return False
    if roll.kind == ActionRoll.Kind.GROUP:
        entry = roll.group_bonuses.get(str(character.pk), {})
        dice, reason = entry.get("ability_dice", 0), entry.get("ability_reason", "")
    elif roll.character_id == character.pk:
        dice, reason = roll.ability_dice, roll.ability_reason
    else:
        return False
    # The reason is the name the player gave the die: the ability's, in either language.
    names = {"daredevil", gettext("Daredevil").casefold()}
    return bool(dice) and reason.strip().casefold() in names


def crew_abilities(table_id: int) -> list[str]:
    """The keys of the table's crew abilities (none before the crew is made)."""
    crew = Crew.objects.filter(table_id=table_id).values_list("abilities", flat=True)
    return crew.first() or []


def bonuses_for(roll: ActionRoll, character: Character) -> rules.Bonuses:
    """What this character's dice get: a group participant's own, else the roll's."""
    if roll.kind == ActionRoll.Kind.GROUP:
        return group_bonuses_of(roll, character.pk)
    return bonuses_of(roll)


def terms_of(roll: ActionRoll, character: Character) -> dict:
    """What the rules need to work out this character's roll (rules.flow.roll_terms, and
    rules.flow.resolve as the dice are cast): the panel shows what the roll will be with
    the same numbers the dice are cast with."""
    return {
        "action": roll.action,
        "rating": getattr(character, roll.action),
        "harm": character.felt_harm,
        "position": roll.as_position,
        "effect": roll.as_effect,
        "bonuses": bonuses_for(roll, character),
        "flashback_cost": roll.flashback_cost or 0,
    }


def involved(roll: ActionRoll) -> list[int]:
    """The characters taking part: roller, assister, group and its assisters."""
    ids = [
        roll.character_id,
        roll.assister_id,
        *(int(k) for k in roll.group),
        *group_assists(roll).values(),
    ]
    return [pk for pk in dict.fromkeys(ids) if pk]


def available_setup(character: Character) -> ActionRoll | None:
    """The table's latest set up by a teammate, if it succeeded and this character has not
    drawn on it yet: it serves "any member of the team who follows through ... multiple
    follow-up actions ... including someone leading a group action" (004 §Set up), each
    member once. The teammate it named is only who the setter had in mind."""
    latest = (
        ActionRoll.objects.filter(table_id=character.table_id, step=Step.DONE)
        .exclude(setup_benefit="")
        .order_by("-finished", "-pk")
        .first()
    )
    if (
        latest is None
        or latest.character_id == character.pk
        or latest.outcome not in (Outcome.CRITICAL, Outcome.SUCCESS, Outcome.PARTIAL)
    ):
        return None
    drawn = ActionRoll.objects.filter(
        setup_from=latest, character=character, step__in=[Step.CONSEQUENCES, Step.DONE]
    )
    return None if drawn.exists() else latest


def last_finished(table) -> ActionRoll | None:
    """The roll the GM's undo takes back."""
    return (
        ActionRoll.objects.filter(table=table, step=Step.DONE).order_by("-finished", "-pk").first()
    )


def revision(table_id: int, is_gm: bool) -> int:
    """How far the rolls this audience sees have gone: the last step written. The panel
    carries it, and so does the signal after each step, so a page whose panel already
    shows that step (the sender's, drawn in its own response) does not fetch it again."""
    events = RollEvent.objects.filter(roll__table_id=table_id)
    if not is_gm:
        events = events.exclude(roll__secret=True)
    return events.aggregate(last=Max("pk"))["last"] or 0
