"""Who may do what to a shared roll: one predicate per question.

`allowed_steps(roll, viewer)` is the steps a person may take on a roll now: the panel
shows those and no others, and every action asks the same two questions of it before it
acts: `require_may` (is this person one who takes the step: else 403) first, then, after
the action's own checks with their own words, `require_open` (is the step open on the
roll as it stands: else 422). A roll at another table is a 404, like everything of a
table.
"""

from dataclasses import dataclass
from functools import cached_property

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from blades.rules.errors import RuleError
from characters.models import Character
from sessions.access import access_table
from sessions.models import Membership

from .models import ActionRoll, Consequence

Step = ActionRoll.Step
Kind = ActionRoll.Kind


def access_roll(user, table_id: int, roll_id: int) -> tuple[Membership, ActionRoll]:
    """A member of the table reaches its rolls; a player never reaches a secret one."""
    table, membership = access_table(user, table_id)
    roll = ActionRoll.objects.filter(pk=roll_id, table=table).first()
    if roll is None or (roll.secret and not membership.is_gm):
        raise Http404
    return membership, roll


def access_consequence(
    user, table_id: int, roll_id: int, consequence_id: int
) -> tuple[Membership, Consequence]:
    membership, roll = access_roll(user, table_id, roll_id)
    consequence = Consequence.objects.filter(pk=consequence_id, roll=roll).first()
    if consequence is None:
        raise Http404
    return membership, consequence


def own_character(membership: Membership) -> Character | None:
    """The member's active character at this table (the GM has none)."""
    if membership.is_gm:
        return None
    return Character.objects.filter(
        table_id=membership.table_id, owner_id=membership.user_id, state=Character.State.ACTIVE
    ).first()


def require_own_character(membership: Membership) -> Character:
    """The member's character, who proposes the roll: the GM has none."""
    character = own_character(membership)
    if character is None:
        _deny(gettext("Only a player with a character makes action rolls."))
    return character


def _deny(message: str) -> None:
    raise PermissionDenied(message)


def is_roller(membership: Membership, roll: ActionRoll) -> bool:
    return (
        membership.table_id == roll.table_id
        and roll.character is not None
        and roll.character.owner_id == membership.user_id
    )


def can_run_table_rolls(membership: Membership) -> bool:
    """The GM's own at the table: a fortune roll, and undoing the last finished roll."""
    return membership.is_gm


def require_gm_at(membership: Membership, table) -> None:
    if membership.table_id != table.pk:
        raise Http404
    if not can_run_table_rolls(membership):
        _deny(gettext("Only the GM can do that."))


def suffers(membership: Membership, consequence: Consequence) -> bool:
    character = consequence.character
    return character is not None and character.owner_id == membership.user_id


# --- The steps a person may take ---------------------------------------------------------


@dataclass
class RollViewer:
    """The member looking at (or acting on) a roll, with their own active character."""

    membership: Membership
    mine: Character | None = None
    known: bool = False  # `mine` was given: no need to look it up

    @cached_property
    def character(self) -> Character | None:
        return self.mine if self.known else own_character(self.membership)

    @property
    def is_gm(self) -> bool:
        return self.membership.is_gm


def viewer_of(membership: Membership, *args) -> RollViewer:
    """`viewer_of(m)` looks the member's character up when a step needs it;
    `viewer_of(m, mine)` takes the one the panel already has."""
    return RollViewer(membership, *args, known=bool(args))


GM_ONLY = gettext_lazy("Only the GM can do that.")
ROLLER_ONLY = gettext_lazy("Only the player making this roll can do that.")
TEAMMATE_ONLY = gettext_lazy("Only another player's character can do that.")
PARTICIPANT_ONLY = gettext_lazy("Only a participant does that, for their own roll.")
CANCEL_ONLY = gettext_lazy("Only the GM or the player making the roll can cancel it.")
LEAVE_ONLY = gettext_lazy("Only the GM or the participant themselves can do that.")
SUFFERER_ONLY = gettext_lazy("Only the player whose character suffers this can resist it.")
PROTECTOR_ONLY = gettext_lazy("Only another character than the one suffering it can protect them.")


def _teammate(roll: ActionRoll, viewer: RollViewer) -> bool:
    mine = viewer.character
    return mine is not None and mine.pk != roll.character_id


def _participant(roll: ActionRoll, viewer: RollViewer) -> bool:
    mine = viewer.character
    return mine is not None and str(mine.pk) in roll.group


def _roller_of_action(roll: ActionRoll, viewer: RollViewer) -> bool:
    return is_roller(viewer.membership, roll)


# Each step of a roll: who takes it (and what they are told otherwise).
WHO = {
    "terms": (lambda roll, v: v.is_gm, GM_ONLY),
    "as-proposed": (lambda roll, v: v.is_gm, GM_ONLY),
    "accept-trade": (lambda roll, v: v.is_gm, GM_ONLY),
    "refuse-trade": (lambda roll, v: v.is_gm, GM_ONLY),
    "consequence": (lambda roll, v: v.is_gm, GM_ONLY),
    "tick": (lambda roll, v: v.is_gm, GM_ONLY),
    "finish": (lambda roll, v: v.is_gm, GM_ONLY),
    "ask-trade": (_roller_of_action, ROLLER_ONLY),
    "push": (_roller_of_action, ROLLER_ONLY),
    "accept-bargain": (_roller_of_action, ROLLER_ONLY),
    "rooks-gambit": (_roller_of_action, ROLLER_ONLY),
    "ability-stress": (_roller_of_action, ROLLER_ONLY),
    "cohort": (_roller_of_action, ROLLER_ONLY),
    "assist": (_teammate, TEAMMATE_ONLY),
    "join": (_teammate, TEAMMATE_ONLY),
    "group-assist": (_teammate, TEAMMATE_ONLY),
    "group-bonus": (_participant, PARTICIPANT_ONLY),
    # A participant leaves for themselves (the action refuses them anyone else); the GM
    # drops whoever has not rolled.
    "leave": (lambda roll, v: v.is_gm or _participant(roll, v), LEAVE_ONLY),
    "offer-bargain": (lambda roll, v: True, ""),
    "cancel": (lambda roll, v: v.is_gm or is_roller(v.membership, roll), CANCEL_ONLY),
}


def _may_as_roller(roll: ActionRoll, viewer: RollViewer) -> tuple[bool, str]:
    """The one rolling: in a group action each participant rolls (and adds their own
    ability's die), in an action roll its roller."""
    if roll.kind == Kind.GROUP:
        return _participant(roll, viewer), PARTICIPANT_ONLY
    return is_roller(viewer.membership, roll), ROLLER_ONLY


def may(roll: ActionRoll, viewer: RollViewer, step: str) -> tuple[bool, str]:
    """Whether this person is one who takes `step` on the roll, and what they are told
    if not."""
    if viewer.membership.table_id != roll.table_id:
        raise Http404
    if step in ("roll", "ability"):
        return _may_as_roller(roll, viewer)
    who, message = WHO[step]
    return who(roll, viewer), message


def _open_in_setup(roll: ActionRoll, viewer: RollViewer) -> set[str]:
    """The setup steps open on the roll as it stands, for anyone who may take them."""
    action, group = roll.kind == Kind.ACTION, roll.kind == Kind.GROUP
    steps = {"cancel"}
    # A group action's terms are fixed once its first die falls: every participant
    # rolls at the same position and effect (004 §6. Roll the Dice).
    if not (group and _any_rolled(roll)):
        steps.add("terms")
        if not roll.called:
            steps.add("as-proposed")
        if roll.trade_asked:
            steps |= {"accept-trade", "refuse-trade"}
    if action:
        steps |= {"push", "rooks-gambit", "ability-stress", "ability"}
        if not roll.trade_asked:
            steps.add("ask-trade")
        if not roll.bargain_accepted:
            steps.add("offer-bargain")
            if roll.bargain and not roll.push_dice:
                steps.add("accept-bargain")
        if roll.assister_id is None:
            steps.add("assist")
    ready = roll.called and not (roll.flashback and roll.flashback_cost is None)
    if group:
        mine = viewer.character
        steps.add("cohort")
        if droppable(roll):
            steps.add("leave")
        assisting = {int(e["assister"]) for e in roll.group_bonuses.values() if e.get("assister")}
        outsider = mine is not None and str(mine.pk) not in roll.group
        if outsider and mine.pk not in assisting:
            steps.add("join")
            if any(dice is None and pk not in _assisted(roll) for pk, dice in roll.group.items()):
                steps.add("group-assist")
        if mine is not None and roll.group.get(str(mine.pk), 0) is None:
            steps |= {"group-bonus", "ability"}
            if ready:
                steps.add("roll")
    elif ready:
        steps.add("roll")
    return steps


def _any_rolled(roll: ActionRoll) -> bool:
    return bool(roll.cohorts) or any(dice is not None for dice in roll.group.values())


def can_drop_others(viewer: RollViewer) -> bool:
    """Who may take another participant out of a group action (a participant may always
    leave it themselves): the GM."""
    return viewer.is_gm


def droppable(roll: ActionRoll) -> list[int]:
    """The participants of a group action who may leave it (or the GM drop): any but the
    leader who has not rolled. "If you don't roll, your character doesn't get the effects
    of the action" (004 §Lead a group action)."""
    return [
        int(pk) for pk, dice in roll.group.items() if dice is None and int(pk) != roll.character_id
    ]


def _assisted(roll: ActionRoll) -> set[str]:
    return {pk for pk, entry in roll.group_bonuses.items() if entry.get("assister") is not None}


def open_steps(roll: ActionRoll, viewer: RollViewer) -> set[str]:
    """The steps open on the roll as it stands, whoever may take them."""
    if roll.step == Step.SETUP:
        return _open_in_setup(roll, viewer)
    if roll.step == Step.CONSEQUENCES:
        return {"consequence", "tick", "finish"}
    return set()


def allowed_steps(roll: ActionRoll, viewer: RollViewer) -> frozenset[str]:
    """The steps this person may take on the roll now: the panel's buttons, and what the
    actions let through."""
    return frozenset(step for step in open_steps(roll, viewer) if may(roll, viewer, step)[0])


# --- The steps on one consequence ----------------------------------------------------------

CONSEQUENCE_WHO = {
    "resist": (lambda c, v: suffers(v.membership, c), SUFFERER_ONLY),
    "armor": (lambda c, v: suffers(v.membership, c), SUFFERER_ONLY),
    "protect": (
        lambda c, v: v.character is not None and v.character.pk != c.character_id,
        PROTECTOR_ONLY,
    ),
    # A Mastermind's special armor, spent for a teammate (the action asks for the ability).
    "guard": (
        lambda c, v: v.character is not None and v.character.pk != c.character_id,
        PROTECTOR_ONLY,
    ),
    "reduced": (lambda c, v: v.is_gm, GM_ONLY),
    "avoided": (lambda c, v: v.is_gm, GM_ONLY),
}


def may_on(consequence: Consequence, viewer: RollViewer, step: str) -> tuple[bool, str]:
    if viewer.membership.table_id != consequence.roll.table_id:
        raise Http404
    who, message = CONSEQUENCE_WHO[step]
    return who(consequence, viewer), message


def open_consequence_steps(consequence: Consequence) -> set[str]:
    """The steps open on one consequence of a rolled roll now, whoever may take them."""
    steps = set()
    if consequence.roll.step != Step.CONSEQUENCES:
        return steps
    if not consequence.resisted:
        steps.add("armor")
        # "You step in to face a consequence that one of your teammates would otherwise
        # face" (004 §Protect): once a teammate has, nobody else would face it.
        if consequence.protected_by_id is None:
            steps |= {"protect", "guard"}
        if consequence.resist_attribute:
            steps.add("resist")
    elif not consequence.result:
        steps |= {"reduced", "avoided"}
    elif consequence.heavy_armor_reduces_again and not consequence.character.heavy_used:
        steps.add("armor")  # the heavy box, reducing the harm again
    return steps


def allowed_consequence_steps(consequence: Consequence, viewer: RollViewer) -> frozenset[str]:
    """The steps this person may take on one consequence now: the panel's buttons."""
    steps = open_consequence_steps(consequence)
    return frozenset(step for step in steps if may_on(consequence, viewer, step)[0])


# --- The guards every step calls -------------------------------------------------------------


def require_may(membership: Membership, subject: ActionRoll | Consequence, step: str) -> RollViewer:
    """403 unless this member is one who takes `step` on the roll (or consequence); the
    viewer, for the action."""
    viewer = viewer_of(membership)
    ask = may_on if isinstance(subject, Consequence) else may
    allowed, message = ask(subject, viewer, step)
    if not allowed:
        _deny(message)
    return viewer


def require_open(subject: ActionRoll | Consequence, viewer: RollViewer, step: str) -> None:
    """After require_may and the action's own checks: the step must be one the panel
    offers now (only its state is left to ask)."""
    if isinstance(subject, Consequence):
        open_now = open_consequence_steps(subject)
    else:
        open_now = open_steps(subject, viewer)
    if step not in open_now:
        raise RuleError(gettext_noop("That step is not open on this roll now."))
