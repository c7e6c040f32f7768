"""Every change to a table happens here: one transaction, then the push on commit."""

import secrets
from collections.abc import Callable

from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Greatest, Least
from django.utils.translation import gettext_noop

from blades.rules import clocks as clock_rules
from blades.rules import dice
from blades.rules.errors import RuleError
from blades.rules.rolls import RollKind, summarize
from blades.rules.words import Joined, Words

from . import access, audience, live, queries
from .models import Clock, Membership, Presence, Roll, Table, new_invite_token
from .signals import clock_moved

# The only source of dice. Tests pass their own rng; nobody else can.
SYSTEM_RNG = secrets.SystemRandom()


class InviteError(RuleError):
    """The link was revoked or renewed between the page and the click."""


def create_table(*, gm, name: str) -> Table:
    with transaction.atomic():
        table = Table.objects.create(name=name, gm=gm)
        Membership.objects.create(table=table, user=gm, role=Membership.Role.GM)
    return table


def join_table(*, user, token: str) -> Table:
    with transaction.atomic():
        table = Table.objects.filter(invite_token=token, invite_active=True).first()
        if table is None:
            raise InviteError(
                gettext_noop("This invite link is not valid any more. Ask your GM for a new one.")
            )
        _, joined = Membership.objects.get_or_create(
            table=table, user=user, defaults={"role": Membership.Role.PLAYER}
        )
        if joined:
            live.push_members(table)
    return table


def regenerate_invite(*, table: Table) -> Table:
    table.invite_token = new_invite_token()
    table.invite_active = True
    table.save(update_fields=["invite_token", "invite_active"])
    return table


def revoke_invite(*, table: Table) -> Table:
    table.invite_active = False
    table.save(update_fields=["invite_active"])
    return table


def set_table_language(*, table: Table, language: str) -> Table:
    """`language` is one of settings.LANGUAGES (the step's field holds it to them)."""
    table.language = language
    table.save(update_fields=["language"])
    return table


def remove_player(*, table: Table, user_id: int) -> None:
    with transaction.atomic():
        membership = Membership.objects.filter(
            table=table, user_id=user_id, role=Membership.Role.PLAYER
        ).first()
        if membership is None:
            return
        Presence.objects.filter(table=table, user_id=user_id).delete()
        membership.delete()
        live.kick_member(table.pk, user_id)
        live.push_members(table)


def record_roll(
    *,
    table_id: int,
    roller,
    kind: RollKind,
    pool: int,
    summary: Words | Joined | str | Callable[[dice.Roll], Words | Joined | str] | None = None,
    note: Words | str = "",
    character=None,
    secret: bool = False,
    rng=SYSTEM_RNG,
) -> Roll:
    """The one way the app rolls dice: `pool` dice are drawn here (blades.rules.dice),
    stored as one line of the table's roll log, and sent to the log after commit.

    Every roll enters the log here: quick rolls, the shared action roll, resistance,
    vice, downtime and the phase rolls. `summary` reads the dice for the log (given the
    drawn dice when it is a function; the kind's own reading when left out). The caller
    reads the dice from the returned row (`as_dice`); `character`, the sheet rolled
    from, is kept by its name."""
    result = dice.roll(pool, rng)
    if summary is None:
        summary = summarize(kind, result)
    elif callable(summary):
        summary = summary(result)
    roll = Roll.objects.create(
        table_id=table_id,
        roller=roller,
        character_name=character.name if character is not None else "",
        kind=kind,
        pool=result.pool,
        dice=list(result.dice),
        outcome=result.outcome,
        summary=summary,
        note=note,
        secret=secret,
    )
    live.push_roll(roll)
    return roll


def amend_roll(roll: Roll, *, summary=None, note=None) -> Roll:
    """Say more about a logged roll once its consequences are known (stress overflowing
    into trauma, the harm a shared roll's consequences dealt); its line is drawn again."""
    if summary is not None:
        roll.summary = summary
    if note is not None:
        roll.note = note
    roll.save(update_fields=["summary", "note"])
    live.push_roll(roll, created=False)
    return roll


def quick_roll(
    *,
    table: Table,
    roller,
    kind: RollKind,
    pool: int,
    note: str = "",
    secret: bool = False,
    rng=SYSTEM_RNG,
) -> Roll:
    with transaction.atomic():
        return record_roll(
            table_id=table.pk,
            roller=roller,
            kind=kind,
            pool=pool,
            note=note,
            secret=secret,
            rng=rng,
        )


def _check_setup(
    *,
    clock: Clock | None,
    table_id: int,
    kind: str,
    visibility: str,
    players_tick: bool,
    unlocks: Clock | None,
    rival: Clock | None,
) -> None:
    for other in (unlocks, rival):
        # Views offer only the table's clocks; an action is a door of its own.
        if other is not None and other.table_id != table_id:
            raise RuleError(gettext_noop("A clock links only to clocks of its own table."))
    clock_rules.check_setup(
        kind=kind,
        hidden=visibility != Clock.Visibility.EVERYONE,
        players_tick=players_tick,
        has_rival=rival is not None,
    )
    if rival is not None and rival.kind != Clock.Kind.RACING:
        raise RuleError(gettext_noop("“%(clock)s” is not a racing clock."), clock=rival.name)
    if clock is not None:
        links = dict(Clock.objects.filter(table_id=table_id).values_list("pk", "unlocks_id"))
        links[clock.pk] = unlocks.pk if unlocks is not None else None
        clock_rules.check_links(links)


def _set_rival(clock: Clock, rival: Clock | None) -> None:
    """A race has two sides: each clock names the other, and neither races a third."""
    ends = [clock.pk] if rival is None else [clock.pk, rival.pk]
    Clock.objects.filter(rival_id__in=ends).update(rival=None)
    if rival is not None:
        Clock.objects.filter(pk=rival.pk).update(rival=clock)
        Clock.objects.filter(pk=clock.pk).update(rival=rival)


def _linked_ids(clock_id: int) -> set[int]:
    """The clocks whose faces name this one: what it unlocks, what unlocks it, its rival."""
    row = Clock.objects.filter(pk=clock_id).values("unlocks_id", "rival_id").first() or {}
    ids = set(
        Clock.objects.filter(Q(unlocks_id=clock_id) | Q(rival_id=clock_id)).values_list(
            "pk", flat=True
        )
    )
    return (ids | {row.get("unlocks_id"), row.get("rival_id")}) - {None, clock_id}


def create_clock(
    *,
    table: Table,
    name: str,
    segments: int,
    kind: str,
    visibility: str,
    players_tick: bool = False,
    unlocks: Clock | None = None,
    rival: Clock | None = None,
    owner=None,
) -> Clock:
    """`owner`: the player who makes it (None: the GM's clock)."""
    if owner is None and visibility == Clock.Visibility.OWNER:
        raise RuleError(gettext_noop("Only a player's own clock is kept between them and the GM."))
    with transaction.atomic():
        _check_setup(
            clock=None, table_id=table.pk, kind=kind, visibility=visibility,
            players_tick=players_tick, unlocks=unlocks, rival=rival,
        )  # fmt: skip
        clock = Clock.objects.create(
            table=table,
            name=name,
            segments=segments,
            kind=kind,
            visibility=visibility,
            players_tick=players_tick,
            unlocks=unlocks,
            owner=owner,
        )
        _set_rival(clock, rival)
        clock.refresh_from_db()
        live.push_clock_setup(
            table.pk, [clock.pk, *_linked_ids(clock.pk)], created=clock.pk, owners=[clock.owner_id]
        )
    return clock


def update_clock(
    *,
    clock: Clock,
    name: str,
    segments: int,
    kind: str,
    visibility: str,
    players_tick: bool = False,
    unlocks: Clock | None = None,
    rival: Clock | None = None,
) -> Clock:
    if clock.owner_id is None and visibility == Clock.Visibility.OWNER:
        raise RuleError(gettext_noop("Only a player's own clock is kept between them and the GM."))
    with transaction.atomic():
        _check_setup(
            clock=clock, table_id=clock.table_id, kind=kind, visibility=visibility,
            players_tick=players_tick, unlocks=unlocks, rival=rival,
        )  # fmt: skip
        was_hidden = Clock.objects.get(pk=clock.pk).hidden
        linked_before = _linked_ids(clock.pk)
        # Shrinking a clock keeps the ticks that still fit; done in SQL so a tick
        # landing at the same moment cannot push `filled` past the new size.
        Clock.objects.filter(pk=clock.pk).update(
            name=name,
            segments=segments,
            kind=kind,
            visibility=visibility,
            players_tick=players_tick,
            unlocks=unlocks,
            filled=Least(F("filled"), segments),
        )
        _set_rival(clock, rival)
        before = clock.filled
        clock.refresh_from_db()
        # The clocks linked before or now: their faces name this clock, or are locked or
        # opened by it.
        linked = linked_before | _linked_ids(clock.pk)
        owners = Clock.objects.filter(pk__in=[clock.pk, *linked]).values_list("owner_id", flat=True)
        live.push_clock_setup(
            clock.table_id, [clock.pk, *linked], was_hidden={clock.pk} if was_hidden else (),
            owners=list(owners),
        )  # fmt: skip
        clock_moved.send(sender=Clock, clock=clock, before=before)
    return clock


def tick_clock(*, clock: Clock, by: int, player=None) -> Clock:
    """Fill (or empty, with a negative `by`) segments, clamped to the clock in one UPDATE.

    `player` (a Membership or access.Audience): a player's tap, allowed only on a clock they
    may tick (sessions.access, asked in the same UPDATE, so the GM taking the permission
    back at that moment wins)."""
    by_gm = player is None
    with transaction.atomic():
        face = queries.clock_faces().get(pk=clock.pk)
        blocker = face.locked_by
        clock_rules.check_tick(
            kind=face.kind,
            by=by,
            locked_until=None if blocker is None else audience.name(blocker, is_gm=by_gm),
            keeper=by_gm or access.can_edit_clock(player, face),
        )
        before = clock.filled
        # The clocks its filling opens or races, as they were: an audience is sent one only
        # if its view of it changed (players do not see a rival's fill if it is hidden).
        linked = [pk for pk in (face.unlocks_id, face.rival_id) if pk is not None]
        others = list(queries.clock_faces().filter(pk__in=linked)) if linked else []
        moving = Clock.objects.filter(pk=clock.pk)
        if not by_gm:
            moving = moving.filter(access.clocks_tickable(player))
        if not moving.update(filled=Greatest(Least(F("filled") + by, F("segments")), 0)):
            raise RuleError(gettext_noop("You may not tick this clock."))
        was_full = face.full
        clock.refresh_from_db()
        live.push_clock(clock, before=face)
        if clock.full != was_full:
            # Filling opens the clock it unlocks, emptying locks it again; a rival shows
            # whether this side has finished.
            for other in others:
                live.push_clock(other, before=other)
        clock_moved.send(sender=Clock, clock=clock, before=before)
    return clock


def delete_clock(*, clock: Clock) -> None:
    with transaction.atomic():
        table_id, clock_id, hidden = clock.table_id, clock.pk, clock.hidden
        linked = _linked_ids(clock_id)
        owners = list(
            Clock.objects.filter(pk__in=[clock_id, *linked]).values_list("owner_id", flat=True)
        )
        clock.delete()
        # The clock it locked opens; those that named it name it no more.
        live.push_clock_setup(
            table_id, [clock_id, *linked], was_hidden={clock_id} if hidden else (), owners=owners
        )
