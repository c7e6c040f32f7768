"""Who may do what with the shared roll: one named predicate per question, asked alike by
the panel (the buttons it draws: rolls/queries.py) and by the guard every step goes
through (`rolls.changes.roll_step`, and a table step's `allow()`).

A predicate is a plain function `(viewer, subject) -> bool`, the subject a roll, one of
its consequences, a character or the table; `refused` gives it the words anyone it
leaves out is told. `WHO_TAKES` names the predicate that answers who takes each step of
the app; `allowed_steps(roll, viewer)` is the steps a person may take on a roll now (who
takes them, and whether they are open on the roll as it stands): the panel draws those
and no others, and the guard lets no other through. A subject at another table is a
404, like everything of a table.
"""

from dataclasses import dataclass
from functools import cached_property

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext_lazy, gettext_noop

from blades.rules.errors import RuleError
from characters.models import Character
from sessions.access import access_table
from sessions.models import Membership, Table

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


# --- The questions --------------------------------------------------------------------------

GM_ONLY = gettext_lazy("Only the GM can do that.")
ROLLER_ONLY = gettext_lazy("Only the player making this roll can do that.")
TEAMMATE_ONLY = gettext_lazy("Only another player's character can do that.")
PARTICIPANT_ONLY = gettext_lazy("Only a participant does that, for their own roll.")
CANCEL_ONLY = gettext_lazy("Only the GM or the player making the roll can cancel it.")
LEAVE_ONLY = gettext_lazy("Only the GM or the participant themselves can do that.")
SUFFERER_ONLY = gettext_lazy("Only the player whose character suffers this can resist it.")
PROTECTOR_ONLY = gettext_lazy("Only another character than the one suffering it can protect them.")
CHARACTER_ONLY = gettext_lazy("Only a player with a character makes action rolls.")


def refused(message):
    """What anyone the predicate below leaves out is told (the guard's 403)."""

    def told(predicate):
        predicate.refusal = message
        return predicate

    return told


@refused(GM_ONLY)
def is_gm(viewer: RollViewer, subject) -> bool:
    """The GM's: the call on a roll (position and effect, a trade), its consequences, the
    target clock, closing it, judging what resisting did; at the table a fortune roll
    and undoing the last finished roll."""
    return viewer.is_gm


@refused(ROLLER_ONLY)
def is_roller(viewer: RollViewer, roll: ActionRoll) -> bool:
    """The player whose character makes the roll (leads the group action)."""
    return roll.character is not None and roll.character.owner_id == viewer.membership.user_id


@refused(TEAMMATE_ONLY)
def is_teammate(viewer: RollViewer, roll: ActionRoll) -> bool:
    """Another player's character than the roller: who assists or joins."""
    mine = viewer.character
    return mine is not None and mine.pk != roll.character_id


@refused(PARTICIPANT_ONLY)
def is_participant(viewer: RollViewer, roll: ActionRoll) -> bool:
    """A participant of a group action, who rolls their own dice with their own bonuses."""
    mine = viewer.character
    return mine is not None and str(mine.pk) in roll.group


@refused(LEAVE_ONLY)
def may_leave(viewer: RollViewer, roll: ActionRoll) -> bool:
    """A participant leaves a group action themselves; the GM drops whoever has not
    rolled (whom: `may_drop`)."""
    return viewer.is_gm or is_participant(viewer, roll)


@refused(LEAVE_ONLY)
def may_drop(viewer: RollViewer, participant: Character) -> bool:
    """Whom this person may take out of a group action: the GM anyone, a participant
    only themselves."""
    mine = viewer.character
    return viewer.is_gm or (mine is not None and mine.pk == participant.pk)


@refused("")
def anyone(viewer: RollViewer, subject) -> bool:
    """A devil's bargain is offered by anyone at the table, the GM or a player."""
    return True


@refused(CANCEL_ONLY)
def may_cancel(viewer: RollViewer, roll: ActionRoll) -> bool:
    """A roll is called off before the dice by the GM or by the player making it."""
    return viewer.is_gm or is_roller(viewer, roll)


@refused(SUFFERER_ONLY)
def suffers(viewer: RollViewer, consequence: Consequence) -> bool:
    """The player whose character suffers the consequence: who resists it, or marks armor."""
    character = consequence.character
    return character is not None and character.owner_id == viewer.membership.user_id


@refused(PROTECTOR_ONLY)
def may_protect(viewer: RollViewer, consequence: Consequence) -> bool:
    """Another character than the one who suffers it steps in (or, a Mastermind, spends
    their special armor for them)."""
    mine = viewer.character
    return mine is not None and mine.pk != consequence.character_id


@refused(CHARACTER_ONLY)
def has_character(viewer: RollViewer, table: Table) -> bool:
    """A player with an active character proposes action rolls for them; the GM has none."""
    return viewer.character is not None


# Each step of the app, on a roll, on one of its consequences or at the table: the
# question that says who takes it.
WHO_TAKES = {
    "terms": is_gm,
    "as-proposed": is_gm,
    "accept-trade": is_gm,
    "refuse-trade": is_gm,
    "consequence": is_gm,
    "tick": is_gm,
    "finish": is_gm,
    "ask-trade": is_roller,
    "push": is_roller,
    "accept-bargain": is_roller,
    "rooks-gambit": is_roller,
    "ability-stress": is_roller,
    "cohort": is_roller,
    "roll": is_roller,  # in a group action each participant's (who_takes)
    "ability": is_roller,  # likewise
    "assist": is_teammate,
    "join": is_teammate,
    "group-assist": is_teammate,
    "group-bonus": is_participant,
    "leave": may_leave,
    "offer-bargain": anyone,
    "cancel": may_cancel,
    "resist": suffers,
    "armor": suffers,
    "protect": may_protect,
    "guard": may_protect,  # a Mastermind's special armor (the step asks for the ability)
    "reduced": is_gm,
    "avoided": is_gm,
    "start": has_character,
    "fortune": is_gm,
    "undo": is_gm,
}


def who_takes(taken: str, subject):
    """The predicate asking who takes step `taken` on `subject`. The one rolling, and
    adding their own ability's die: in a group action each participant, in an action
    roll its roller."""
    if taken in ("roll", "ability") and subject.kind == Kind.GROUP:
        return is_participant
    return WHO_TAKES[taken]


def may(viewer: RollViewer, subject, taken: str) -> bool:
    """Whether this person is one who takes `taken` on `subject` (the page's question)."""
    return who_takes(taken, subject)(viewer, subject)


def _table_id(subject) -> int:
    if isinstance(subject, Table):
        return subject.pk
    if isinstance(subject, Consequence):
        return subject.roll.table_id
    return subject.table_id


def require(predicate, viewer: RollViewer, subject) -> None:
    """The guard: 404 for a subject at another table, else 403 with the predicate's
    refusal unless it lets this person through."""
    if viewer.membership.table_id != _table_id(subject):
        raise Http404
    if not predicate(viewer, subject):
        raise PermissionDenied(str(predicate.refusal))


def require_may(viewer: RollViewer, subject, taken: str) -> None:
    """The guard of step `taken`: the page's question (`may`), asked before it is taken."""
    require(who_takes(taken, subject), viewer, subject)


# --- Which steps are open -----------------------------------------------------------------


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
    """The steps open on the roll as it stands, whoever may take them. On a finished one,
    undo (whose step takes the last finished roll: rolls.undo)."""
    if roll.step == Step.SETUP:
        return _open_in_setup(roll, viewer)
    if roll.step == Step.CONSEQUENCES:
        return {"consequence", "tick", "finish"}
    if roll.step == Step.DONE:
        return {"undo"}
    return set()


def allowed_steps(roll: ActionRoll, viewer: RollViewer) -> frozenset[str]:
    """The steps this person may take on the roll now: the panel's buttons, and what the
    guard lets through."""
    return frozenset(step for step in open_steps(roll, viewer) if may(viewer, roll, step))


# --- The steps on one consequence ----------------------------------------------------------


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
    return frozenset(step for step in steps if may(viewer, consequence, step))


def require_open(subject: ActionRoll | Consequence, viewer: RollViewer, taken: str) -> None:
    """After who may and the step's own checks: the step must be one the panel offers now
    (only the roll's state is left to ask)."""
    if isinstance(subject, Consequence):
        open_now = open_consequence_steps(subject)
    else:
        open_now = open_steps(subject, viewer)
    if taken not in open_now:
        raise RuleError(gettext_noop("That step is not open on this roll now."))
