"""What the flow panel shows one person: the open rolls with the buttons that person
may press, and the finished rolls as a log. Secret rolls never leave here for a player."""

from dataclasses import dataclass, field

from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext

from blades.rules import abilities as ability_rules
from blades.rules import character as char_rules
from blades.rules import crew as crew_rules
from blades.rules import flow as rules
from blades.rules.dice import Outcome, dice_count
from blades.rules.errors import RuleError
from blades.rules.rolls import (
    ASSIST_DICE,
    ASSIST_STRESS,
    BARGAIN_DICE,
    CONSEQUENCE_KINDS,
    FORTUNE_EFFECT_LABELS,
    INFORMATION_LABELS,
    PUSH_DICE,
    PUSH_EFFECT,
    PUSH_STRESS,
    ActionOutcome,
    Effect,
    Position,
    action_outcome,
    effect_ticks,
    fortune_result,
    information_detail,
    reduce_effect,
)
from characters import wording
from characters.models import Character, CharacterAbility, CharacterItem
from crews.models import Cohort, Crew
from crews.sheet import Reminder, reminders
from sessions import audience, queries
from sessions.models import Clock, Membership, Table

from . import access as flow_access
from . import derived
from .changes import FIELD_LABELS
from .models import ActionRoll, Consequence, RollEvent

FINISHED_SHOWN = 10
Step = ActionRoll.Step
OPEN = (Step.SETUP, Step.CONSEQUENCES)

# What each bonus adds, as the panel's words say it ("Push for +1d").
BONUS = {
    "assist_dice": ASSIST_DICE,
    "push_dice": PUSH_DICE,
    "push_effect": PUSH_EFFECT,
    "bargain_dice": BARGAIN_DICE,
    "ability": rules.ABILITY_BONUS,
    "setup_effect": rules.SETUP_EFFECT,
}


@dataclass(frozen=True)
class ConsequenceCard:
    """One consequence the roll's position and result allow, as the GM's card offers it:
    `gist` what it does on this roll; `level` and `ticks` what the card opens on, by
    the position (the GM may pick another: the app offers, the GM decides)."""

    kind: str
    label: str
    gist: str
    level: int = 0
    ticks: int = 0


def consequence_cards(roll: ActionRoll, outcome: ActionOutcome) -> list[ConsequenceCard]:
    position, effect = roll.as_position, roll.as_effect
    gists = {
        "harm": gettext("Opens on level %(level)s (position: %(position)s)"),
        "complication": gettext("Ticks a clock, adds heat to the crew, or is told in words"),
        "reduced_effect": gettext("Effect: %(effect)s → %(reduced)s"),
        "worse_position": gettext("Position: %(position)s → %(worse)s"),
        "lost_opportunity": gettext("The chance slips away: try another approach"),
    }
    level = rules.harm_default(position)
    words = {
        "level": level,
        "position": gettext(position.label),
        "effect": gettext(effect.label),
        "reduced": gettext(reduce_effect(effect).label),
        "worse": gettext(rules.worsen_position(position).label),
    }
    return [
        ConsequenceCard(
            kind=kind,
            label=gettext(CONSEQUENCE_KINDS[kind]),
            gist=gists[kind] % words,
            level=level if kind == "harm" else 0,
            ticks=rules.complication_ticks_default(outcome.severity)
            if kind == "complication"
            else 0,
        )
        for kind in outcome.consequences
    ]


# The Push step's flags, each a die (or a card) the roller taps to take or give back.
PUSH_FLAGS = ("push_dice", "push_effect", "push_act", "push_special")


@dataclass(frozen=True)
class PushDie:
    """One push the roller may tap: `flag` the one it flips, `posts` every flag that is on
    once it is flipped (the Push step sets them all at once)."""

    flag: str
    pressed: bool
    posts: tuple[str, ...]


def push_dice(roll: ActionRoll, *, incapacitated: bool, special: bool) -> list[PushDie]:
    on = {flag for flag in PUSH_FLAGS if getattr(roll, flag)}
    offered = {
        "push_dice": not roll.bargain_accepted,  # the bargain gives that die instead
        "push_effect": True,
        "push_act": incapacitated or roll.push_act,
        "push_special": special or roll.push_special,
    }
    return [
        PushDie(flag, flag in on, tuple(f for f in PUSH_FLAGS if (f in on) != (f == flag)))
        for flag in PUSH_FLAGS
        if offered[flag]
    ]


@dataclass(frozen=True)
class TradeCard:
    """A trade of position for effect (or back) drawn as what it does to this roll:
    `direction` the ask-trade step's "for", the terms before and after."""

    direction: str
    position: Position
    effect: Effect
    to_position: Position
    to_effect: Effect


def trade_card(roll: ActionRoll, direction: str) -> TradeCard | None:
    """The card for a trade the roll's terms allow, None for one they don't."""
    position, effect = roll.as_position, roll.as_effect
    try:
        after = rules.trade(position, effect, direction)
    except RuleError:
        return None
    return TradeCard(direction, position, effect, *after)


@dataclass
class ConsequenceView:
    consequence: Consequence
    steps: frozenset[str]  # access.allowed_consequence_steps: the buttons shown
    can_resist: bool
    can_protect: bool
    can_judge: bool
    can_heavy: bool = False
    can_armor: bool = False  # the sufferer carries armor with its box unmarked
    can_guard: bool = False  # I may spend my Mastermind's special armor to protect them
    special_armor: str = ""  # the ability whose special armor they may spend, if any
    # What the one who suffers it might resist with, for the GM to judge.
    reminders: list[Reminder] = field(default_factory=list)


@dataclass
class ChangeView:
    who: str
    field: str  # the field's key ("harm"), as stored
    label: str  # and its name in the reader's language
    before: object
    after: object


@dataclass
class EventView:
    """One step of the roll's log, its clocks named for the person looking."""

    actor: str
    text: str
    changes: list[ChangeView]


@dataclass
class RollView:
    roll: ActionRoll
    steps: frozenset[str] = frozenset()  # access.allowed_steps: the buttons shown
    is_roller: bool = False
    can_terms: bool = False
    can_assist: bool = False
    can_join: bool = False
    can_roll: bool = False
    # Before the GM's call the dice wait, and every page says so.
    waiting: bool = False
    incapacitated: bool = False  # the roller may push to act
    can_cancel: bool = False
    can_offer: bool = False
    can_gambit: bool = False
    # The abilities the roller may pay stress for: (key, name, stress), Emberdeath (the
    # crew's) and Ghost Veil (their own).
    stress_abilities: list[tuple[str, str, int]] = field(default_factory=list)
    pool: int | None = None
    position: Position = Position.RISKY
    effect: Effect = Effect.STANDARD
    warnings: list[str] = field(default_factory=list)
    outcome: ActionOutcome | None = None
    cards: list[ConsequenceCard] = field(default_factory=list)  # the GM's consequences
    pushes: list[PushDie] = field(default_factory=list)
    trades: list[TradeCard] = field(default_factory=list)  # those the roller may ask for
    trade_asked: TradeCard | None = None  # the one asked, for the GM's answer
    ticks: int = 0
    detail: str = ""
    # Group action: each participant, their dice (None until rolled) and bonus dice.
    group: list[tuple[Character, list[int] | None, list[str]]] = field(default_factory=list)
    my_group_bonus: dict | None = None  # set while I may still add my own bonus dice
    # The leader's Expertise, when the group acts with the action chosen for it.
    expertise_action: str = ""
    special_push: str = ""  # the roller's special armor ability, while its box is unmarked
    foresight_left: int = 0  # the free assists my Foresight has left this score
    assist_choices: list[Character] = field(default_factory=list)
    cohorts: list[tuple[str, list[int]]] = field(default_factory=list)  # led, with their dice
    cohort_choices: list = field(default_factory=list)  # the leader's, while they may lead
    # Who I may take out of a group action before they roll: the GM anyone but the
    # leader, a participant themselves.
    leave_choices: list[Character] = field(default_factory=list)
    drops_others: bool = False  # and whether that is anyone's (the GM's), not only mine
    # Abilities the GM judges that may bear on this roll (the roller's, the crew's, and
    # for a teammate who may assist, their own).
    reminders: list[Reminder] = field(default_factory=list)
    involved: list[Character] = field(default_factory=list)
    consequences: list[ConsequenceView] = field(default_factory=list)
    events: list[EventView] = field(default_factory=list)


def _encumbered(characters: list[Character]) -> set[int]:
    """Which of these characters carry more than their load, in two queries for all."""
    loaded = {c.pk: c for c in characters if c.load}
    loads: dict[int, list[int]] = {pk: [] for pk in loaded}
    checked = CharacterItem.objects.filter(character__in=loaded, checked=True)
    for character_id, load in checked.values_list("character_id", "load"):
        loads[character_id].append(load)
    mules = set(
        CharacterAbility.objects.filter(character__in=loaded, ability__mule=True).values_list(
            "character_id", flat=True
        )
    )
    return {
        pk
        for pk, character in loaded.items()
        if char_rules.check_load(
            character.load,
            pk in mules,
            char_rules.load_total(loads[pk]),
            character.load_bonus(loads[pk]),
        ).encumbered
    }


def _armor_carried(characters: dict[int, Character]) -> dict[int, set[str]]:
    """The kinds of armor ("armor", "heavy") each character checked on this score's load,
    in one query for all."""
    carried: dict[int, set[str]] = {pk: set() for pk in characters}
    loaded = [pk for pk, c in characters.items() if c.load]
    checked = CharacterItem.objects.filter(character__in=loaded, checked=True).exclude(armor="")
    for character_id, armor in checked.values_list("character_id", "armor"):
        carried[character_id].add(armor)
    return carried


def _armor_left(character: Character, carried: set[str]) -> tuple[str, ...]:
    used = {box for box in char_rules.ARMOR_BOXES if getattr(character, f"{box}_used")}
    special = any(row.ability.special_armor for row in character.abilities.all())
    return char_rules.armor_left(
        used, armor="armor" in carried, heavy="heavy" in carried, special=special
    )


@dataclass
class Loaded:
    """What the panel loads once for all its rolls (_in_full): everyone they involve,
    those of them over their load, the armor each carries, the table's crew and the
    cohorts they led, named as the crew sheet names them now."""

    characters: dict[int, Character]
    encumbered: set[int]
    crew: Crew | None
    armor: dict[int, set[str]]
    cohort_names: dict[str, str]

    def sheet(self, character: Character) -> Character:
        """The panel's own copy of a character, with its abilities loaded."""
        return self.characters.get(character.pk, character)


def roll_view(roll: ActionRoll, viewer: flow_access.RollViewer, loaded: Loaded) -> RollView:
    """One roll as this person's panel draws it: the buttons of the steps they may take
    (access.allowed_steps, which the steps' guard asks too) and what each needs."""
    steps = flow_access.allowed_steps(roll, viewer)
    view = RollView(
        roll=roll,
        steps=steps,
        is_roller=flow_access.is_roller(viewer, roll),
        position=roll.as_position,
        effect=roll.as_effect,
    )
    if roll.kind == ActionRoll.Kind.FORTUNE:
        view.detail = _fortune_detail(roll)
        return view
    _cast(view, loaded)
    _buttons(view)
    if roll.step == Step.SETUP:
        _setup(view, viewer, loaded)
    if roll.outcome:
        _outcome(view)
    view.consequences = [
        _consequence_view(roll, consequence, viewer, loaded)
        for consequence in roll.consequences.all()
    ]
    return view


def _fortune_detail(roll: ActionRoll) -> str:
    if roll.gather_information:
        return gettext(INFORMATION_LABELS[information_detail(Outcome(roll.outcome))])
    return gettext(FORTUNE_EFFECT_LABELS[fortune_result(Outcome(roll.outcome))])


def _cast(view: RollView, loaded: Loaded) -> None:
    """Who takes part: everyone the roll involves, a group action's participants with
    their dice and bonus dice, the cohorts led."""
    roll, characters = view.roll, loaded.characters
    view.involved = [characters[pk] for pk in derived.involved(roll) if pk in characters]
    # The leader first, then by sheet: a JSON object's key order is not kept (PostgreSQL's
    # jsonb sorts keys, and so does an export), so it orders nothing a page shows.
    view.group = [
        (characters[int(pk)], dice, _group_notes(roll.group_bonuses.get(pk, {}), characters))
        for pk, dice in sorted(
            roll.group.items(), key=lambda item: (int(item[0]) != roll.character_id, int(item[0]))
        )
    ]
    # One dismissed since by the name it was led under.
    shown = loaded.cohort_names
    view.cohorts = [
        (shown.get(pk, c["name"]), c["dice"]) for pk, c in sorted(roll.cohorts.items(), key=_by_id)
    ]


def _buttons(view: RollView) -> None:
    """The roll's own buttons, each drawn for the steps this person may take."""
    roll, steps = view.roll, view.steps
    view.can_terms = "terms" in steps
    view.waiting = roll.step == Step.SETUP and not roll.called
    view.can_cancel = "cancel" in steps
    view.can_assist = "assist" in steps
    view.can_join = "join" in steps
    view.can_offer = "offer-bargain" in steps
    view.can_roll = "roll" in steps
    if "ask-trade" in steps:
        view.trades = [c for d in ("effect", "position") if (c := trade_card(roll, d))]
    if "accept-trade" in steps and roll.trade_asked:
        view.trade_asked = trade_card(roll, roll.trade_for or "effect")


def _setup(view: RollView, viewer: flow_access.RollViewer, loaded: Loaded) -> None:
    """Before the dice: what the roller is warned of, what the GM is reminded of, and
    what this person may add."""
    roll, steps, mine = view.roll, view.steps, viewer.character
    character = loaded.characters[roll.character_id]
    view.warnings = wording.warnings_before_a_roll(character, character.pk in loaded.encumbered)
    moment = "group" if roll.kind == ActionRoll.Kind.GROUP else "roll"
    view.reminders = reminders(character, loaded.crew, moment)
    if mine is not None and mine.pk != roll.character_id:
        view.reminders += reminders(loaded.sheet(mine), None, "assist")
    helping = "assist" in steps or "group-assist" in steps
    if helping and mine and ability_rules.FORESIGHT in loaded.sheet(mine).ability_keys:
        used = derived.foresight_used(mine)
        view.foresight_left = max(0, ability_rules.FORESIGHT_PER_SCORE - used)
    if mine is not None:
        felt = loaded.sheet(mine).felt_harm
        view.incapacitated = char_rules.harm_penalty(felt).incapacitated
    if roll.kind == ActionRoll.Kind.ACTION:
        _action_setup(view, character, loaded.crew)
    else:
        _group_setup(view, viewer, character, loaded)


def _action_setup(view: RollView, character: Character, crew: Crew | None) -> None:
    roll, steps = view.roll, view.steps
    terms = rules.roll_terms(**derived.terms_of(roll, character))
    view.pool, view.position, view.effect = terms.pool, terms.position, terms.effect
    # The button for an ability the roller has; the step refuses one they lack.
    view.can_gambit = "rooks-gambit" in steps and "rooks_gambit" in character.ability_keys
    if "ability-stress" in steps:
        view.stress_abilities = stress_abilities(character, crew)
    if "push" in steps:
        view.special_push = derived.special_push_ability(roll, character)
        view.pushes = push_dice(
            roll, incapacitated=view.incapacitated, special=bool(view.special_push)
        )


def _group_setup(
    view: RollView, viewer: flow_access.RollViewer, leader: Character, loaded: Loaded
) -> None:
    roll, steps, mine = view.roll, view.steps, viewer.character
    if "group-bonus" in steps:
        view.my_group_bonus = roll.group_bonuses.get(str(mine.pk), {})
    if ability_rules.leads_with_expertise(
        roll.action, leader.ability_choice(ability_rules.EXPERTISE)
    ):
        view.expertise_action = roll.action
    if "group-assist" in steps:
        assists = derived.group_assists(roll)
        view.assist_choices = [
            character
            for character, dice, _ in view.group
            if dice is None and character.pk not in assists
        ]
    if "leave" in steps:
        droppable = [loaded.characters[pk] for pk in flow_access.droppable(roll)]
        view.leave_choices = [c for c in droppable if flow_access.may_drop(viewer, c)]
        # Drawn as a choice among others (the GM's), or as leaving for oneself.
        view.drops_others = any(mine is None or c.pk != mine.pk for c in view.leave_choices)
    crew = loaded.crew
    if "cohort" in steps and crew is not None:
        view.cohort_choices = [
            c
            for c in crew.cohorts.all()
            if str(c.pk) not in roll.cohorts and c.harm < crew_rules.COHORT_BROKEN
        ]


def _outcome(view: RollView) -> None:
    """The dice are in: the result, the GM's consequence cards, the target clock's ticks
    and what information the roll gathered."""
    roll = view.roll
    view.outcome = action_outcome(roll.as_position, Outcome(roll.outcome))
    view.cards = consequence_cards(roll, view.outcome)
    if view.outcome.succeeded:
        view.ticks = effect_ticks(roll.as_effect, critical=roll.outcome == Outcome.CRITICAL)
    if roll.gather_information:
        # From an action roll, detail follows the effect the GM set, not the dice.
        level = max(Effect.LIMITED, min(roll.as_effect, Effect.GREAT))
        view.detail = (
            gettext("%(effect)s detail") % {"effect": gettext(Effect(level).label)}
            if view.outcome.succeeded
            else ""
        )


def _consequence_view(
    roll: ActionRoll, consequence: Consequence, viewer: flow_access.RollViewer, loaded: Loaded
) -> ConsequenceView:
    """One consequence, with the buttons of the steps this person may take on it."""
    unresisted = roll.step == Step.CONSEQUENCES and not consequence.resisted
    sufferer, mine = consequence.character, viewer.character
    on = flow_access.allowed_consequence_steps(consequence, viewer)
    can_resist = "armor" in on and not consequence.resisted
    item = ConsequenceView(
        consequence=consequence,
        steps=on,
        can_resist=can_resist,
        can_protect="protect" in on,
        can_judge="reduced" in on,
        can_heavy="armor" in on and bool(consequence.resisted),
        reminders=reminders(loaded.sheet(sufferer), loaded.crew, "resist")
        if unresisted and sufferer
        else [],
    )
    if "guard" in on and mine is not None:
        me = loaded.sheet(mine)
        item.can_guard = ability_rules.MASTERMIND in me.ability_keys and bool(
            derived.special_armor_ability(me)
        )
    if can_resist:
        # Only the boxes there are to mark: armor carried, special armor's ability.
        sufferer = loaded.sheet(sufferer)
        left = _armor_left(sufferer, loaded.armor.get(sufferer.pk, set()))
        item.can_armor = "armor" in left
        if "special" in left:
            item.special_armor = derived.special_armor_ability(sufferer)
    return item


def _event_views(views: list[RollView], is_gm: bool) -> None:
    """Fill in each roll's step log, naming every clock through the audience rule, with
    one query for all the panel's clocks. Lines from before references keep the names
    they were written with; the roll's own clocks are taken out of them for players
    while hidden."""
    events = [(view, event) for view in views for event in view.roll.events.all()]
    texts = [event.text for _, event in events]
    whos = [str(c.get("who", "")) for _, event in events for c in event.changes]
    clock_pks = {c["clock"] for _, event in events for c in event.changes if "clock" in c}
    for view in views:
        clock_pks |= {view.roll.target_clock_id} | {
            c.clock_id for c in view.roll.consequences.all()
        }
    legacy = list(Clock.objects.filter(pk__in=clock_pks - {None}))
    filled = iter(audience.fill_all(texts + whos, is_gm=is_gm, legacy=legacy))
    by_text = [next(filled) for _ in texts]
    veiled = set() if is_gm else {c.pk for c in legacy if c.progress_hidden}
    for (view, event), text in zip(events, by_text, strict=True):
        whos = [next(filled) for _ in event.changes]
        changes = [
            ChangeView(who, c["field"], _label(c["field"]), c["before"], c["after"])
            for who, c in zip(whos, event.changes, strict=True)
            # Whether a clock whose progress players do not see moved at all is not theirs:
            # a tick stops at a full clock, and "it moved" would tell them it was not.
            if c.get("clock") not in veiled
        ]
        actor = event.actor.username if event.actor else gettext("someone")
        view.events.append(EventView(actor=actor, text=text, changes=changes))


def _label(field_name: str) -> str:
    # A restored file's event may name a field no step writes: shown by its key.
    return gettext(FIELD_LABELS.get(field_name, field_name))


def _by_id(item: tuple[str, object]) -> int:
    return int(item[0])


def _group_notes(entry: dict, characters: dict[int, Character]) -> list[str]:
    notes = []
    if entry.get("push"):
        notes.append(
            gettext("pushes for +%(dice)sd (%(stress)s stress)")
            % {"dice": PUSH_DICE, "stress": PUSH_STRESS}
        )
    if entry.get("act"):
        notes.append(
            gettext("pushes to act while incapacitated (%(stress)s stress)")
            % {"stress": PUSH_STRESS}
        )
    if entry.get("bargain"):
        notes.append(
            gettext("devil's bargain (+%(dice)sd): %(bargain)s")
            % {"dice": BARGAIN_DICE, "bargain": entry["bargain"]}
        )
    if entry.get("ability_reason"):
        notes.append(
            gettext("%(reason)s: +%(bonus)sd")
            % {"reason": entry["ability_reason"], "bonus": entry["ability_dice"]}
        )
    if entry.get("assister") in characters:
        notes.append(
            gettext("assisted by %(name)s (+%(dice)sd)")
            % {"name": characters[entry["assister"]].name, "dice": ASSIST_DICE}
        )
    return notes


def _rolls(table: Table, is_gm: bool):
    # The characters they name are the panel's own (_attach): joined here, their columns
    # made compiling the two roll queries a quarter of a panel read.
    rolls = ActionRoll.objects.filter(table=table).select_related("setup_from", "bargain_by")
    return rolls if is_gm else rolls.exclude(secret=True)


def _named(rolls: list[ActionRoll]) -> set[int]:
    """Every character the rolls name: who takes part, whom a set up helps or came
    from, whom a consequence befalls."""
    named = {pk for roll in rolls for pk in derived.involved(roll)}
    for roll in rolls:
        named |= {roll.setup_for_id, roll.setup_from and roll.setup_from.character_id}
        named |= {c.character_id for c in roll.consequences.all()}
    return named - {None}


def _attach(rolls: list[ActionRoll], characters: dict[int, Character]) -> None:
    """Each roll's and consequence's characters, as select_related would have set them."""
    for roll in rolls:
        roll.character = characters.get(roll.character_id)
        roll.assister = characters.get(roll.assister_id)
        roll.setup_for = characters.get(roll.setup_for_id)
        if roll.setup_from:
            roll.setup_from.character = characters.get(roll.setup_from.character_id)
        for consequence in roll.consequences.all():
            consequence.character = characters.get(consequence.character_id)


def _steps_of(rolls: list[ActionRoll]) -> None:
    """Each roll's log and consequences, for the open and finished rolls together: one
    query per relation for the whole panel, not one per list."""
    prefetch_related_objects(
        rolls,
        Prefetch("events", queryset=RollEvent.objects.select_related("actor")),
        Prefetch("consequences", queryset=Consequence.objects.select_related("clock")),
    )


def _undo_roll(table: Table, membership: Membership, finished: list[ActionRoll]):
    """The undo button's roll, for whom may undo it (the step's own question): the last
    done roll. The GM's finished rolls are every roll's latest (secret ones too), in the
    order undo takes them: it is the first done one among them, unless all were undone."""
    if not flow_access.may(flow_access.viewer_of(membership), table, "undo"):
        return None
    if membership.is_gm:
        done = next((roll for roll in finished if roll.step == Step.DONE), None)
        if done is not None or len(finished) < FINISHED_SHOWN:
            return done
    return derived.last_finished(table)


def stress_abilities(character: Character, crew: Crew | None) -> list[tuple[str, str, int]]:
    """Emberdeath and Ghost Veil as the roller may use them, each with its least stress."""
    held = {
        ability_rules.EMBERDEATH: crew is not None and ability_rules.EMBERDEATH in crew.abilities,
        ability_rules.GHOST_VEIL: ability_rules.GHOST_VEIL in character.ability_keys,
    }
    return [
        (key, ability_rules.BONUS_NAMES[key], ability_rules.ability_stress(
            key, abilities=character.ability_keys,
            crew_abilities=crew.abilities if crew else (),
        ))
        for key, has_it in held.items()
        if has_it
    ]  # fmt: skip


def _cohort_names(rolls: list[ActionRoll]) -> dict[str, str]:
    """The cohorts these rolls led, named as the crew sheet names them now, in the
    reader's language (an unnamed one by its types): one query for the whole panel."""
    led = {pk for roll in rolls for pk in roll.cohorts}
    return {str(c.pk): str(c) for c in Cohort.objects.filter(pk__in=led)} if led else {}


def _in_full(
    table: Table, membership: Membership, mine, rolls: list[ActionRoll], named=()
) -> tuple:
    """Each roll drawn in full for this member (`mine`: their character), with what
    loading them for the whole panel at once takes; `named`, more characters whose names
    the panel shows."""
    _steps_of(rolls)
    characters = Character.objects.prefetch_related(
        Prefetch("abilities", queryset=CharacterAbility.objects.select_related("ability__playbook"))
    ).in_bulk(_named(rolls) | set(named))
    _attach(rolls, characters)
    rolling = [
        characters[r.character_id] for r in rolls if r.step in OPEN and r.character_id in characters
    ]
    loaded = Loaded(
        characters=characters,
        encumbered=_encumbered(rolling),
        armor=_armor_carried(characters),
        crew=Crew.objects.filter(table=table).first(),
        cohort_names=_cohort_names(rolls),
    )
    viewer = flow_access.viewer_of(membership, mine)
    views = [roll_view(roll, viewer, loaded) for roll in rolls]
    _event_views(views, membership.is_gm)
    return views, characters, loaded.crew


def panel_context(table: Table, membership: Membership) -> dict:
    """The flow panel: the open rolls in full, the finished ones as a line each. A
    finished roll's whole story is fetched when its line is opened (finished_roll_context):
    drawn ten times over on every read, the finished rolls were about half of each panel
    read, and so of each step of the shared roll (issue 36)."""
    rolls = _rolls(table, membership.is_gm)
    open_rolls = list(rolls.filter(step__in=OPEN).order_by("created", "pk"))
    finished = rolls.filter(step__in=[Step.DONE, Step.UNDONE]).order_by("-finished", "-pk")
    finished = list(finished[:FINISHED_SHOWN])
    named = {roll.character_id for roll in finished}
    mine = flow_access.own_character(membership)
    open_views, characters, crew = _in_full(table, membership, mine, open_rolls, named)
    for roll in finished:
        roll.character = characters.get(roll.character_id)
    return {
        **_panel_terms(table, membership, mine, crew),
        "open_rolls": open_views,
        "finished": [RollView(roll=roll) for roll in finished],
        "undo_roll": _undo_roll(table, membership, finished),
        "revision": derived.revision(table.pk, membership.is_gm),
    }


def finished_roll_context(table: Table, membership: Membership, roll_id: int) -> dict | None:
    """One finished roll in full, as the panel would have drawn it for this member; None
    for one that is not theirs to read (a player never reaches a secret roll)."""
    finished = _rolls(table, membership.is_gm).filter(step__in=[Step.DONE, Step.UNDONE])
    roll = finished.filter(pk=roll_id).first()
    if roll is None:
        return None
    mine = flow_access.own_character(membership)
    (view,), _, crew = _in_full(table, membership, mine, [roll])
    return {**_panel_terms(table, membership, mine, crew), "v": view}


def _panel_terms(table: Table, membership: Membership, mine, crew: Crew | None) -> dict:
    """What every roll of the panel is drawn with: the menus and the rules' numbers."""
    is_gm = membership.is_gm
    return {
        "table": table,
        "is_gm": is_gm,
        "mine": mine,
        # The GM's menus name them; whoever the panel is drawn for gets their view of each.
        "clocks": audience.clock_views(queries.visible_clocks(table.pk, is_gm), membership),
        "has_crew": crew is not None,
        # Whether a consequence is a supernatural threat is the GM's to say; it changes a
        # number only for a crew with Anointed, so only then is it asked.
        "asks_supernatural": crew is not None and ability_rules.ANOINTED in crew.abilities,
        "positions": list(Position),
        "effects": list(Effect),
        "attributes": list(char_rules.ATTRIBUTES),
        "flashback_costs": rules.FLASHBACK_COSTS,
        "harm_levels": list(char_rules.HARM_SLOTS),
        "complication_ticks": rules.COMPLICATION_TICKS,
        "ability_kinds": ("dice", "effect"),  # what an ability's card may give
        "complication_heat": rules.COMPLICATION_HEAT,
        "push_stress": PUSH_STRESS,
        "bonus": BONUS,
        "zero_pool_dice": dice_count(0),
        "assist_stress": ASSIST_STRESS,
        "gambit_stress": ability_rules.ROOKS_GAMBIT_STRESS,
        "veil_extras": list(ability_rules.GHOST_VEIL_EXTRAS.items()),
        "veil_extra_stress": ability_rules.GHOST_VEIL_EXTRA_STRESS,
        "anointed_dice": ability_rules.ANOINTED_DICE,
        "expertise_stress": ability_rules.EXPERTISE_STRESS_MOST,
    }
