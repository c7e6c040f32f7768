"""The one place that names channel groups and sends fragments to browsers.

Every table has two audiences, its players and its GM, and a group for each audience and
language: a socket joins its reader's. Each push is rendered per audience, so what the GM
hides is never rendered into a player's frame at all, and per language that a socket at
the table reads (its presence row says which), so an all-English table draws each
fragment once per audience, and no fragment is drawn in a language nobody there reads.
Every push goes through `push`: it waits for the commit, then draws each audience's
fragment from committed state. A browser never sees a change that could still roll back,
never sees it before the database does, and the write lock is never held while a
template renders (`push` refuses to draw inside a transaction).
"""

import logging
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass
from functools import cache

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection, transaction
from django.template.loader import render_to_string
from django.utils import translation

from . import access, audience, panels, queries
from .forms import NEW_CLOCK, ClockForm
from .models import Presence

PAGE = "sessions/table.html"


def players_group(table_id: int, language: str) -> str:
    return f"table-{table_id}-players-{language}"


def gm_group(table_id: int, language: str) -> str:
    return f"table-{table_id}-gm-{language}"


def session_group(session_key: str) -> str:
    """Every socket opened with one login session, so that logging out closes them all."""
    return f"login-{session_key}"


def member_group(table_id: int, user_id: int, language: str) -> str:
    """Every socket one member has open at a table in one language: what they alone
    receive, and removing them closes them all (each language's)."""
    return f"member-{table_id}-{user_id}-{language}"


def screen_group(screen_id: int) -> str:
    """The sockets opened with one shared-screen link, so that revoking it closes them."""
    return f"screen-{screen_id}"


def groups_for(
    table_id: int, is_gm: bool, language: str, session_key: str | None = None
) -> list[str]:
    groups = [gm_group(table_id, language) if is_gm else players_group(table_id, language)]
    return [*groups, session_group(session_key)] if session_key else groups


def listening(table_id: int) -> dict[str, set[int]]:
    """The languages the table's open sockets read, each with the members reading it."""
    readers: dict[str, set[int]] = {}
    for language, user_id in (
        Presence.objects.filter(table_id=table_id).values_list("language", "user_id").distinct()
    ):
        readers.setdefault(language, set()).add(user_id)
    return readers


def fragment(partial: str, **context) -> str:
    return render_to_string(f"{PAGE}#{partial}", context)


# By the time anything is sent the change has committed: an unreachable layer (Redis
# down) must not turn the request into an error page. Nothing is lost for the pages: the
# outage has closed their sockets, and the snapshot each receives on reconnecting brings
# the change.
UNREACHABLE = "channel layer unreachable; the snapshot will catch pages up"

logger = logging.getLogger(__name__)


def _send(send: Callable[[], Awaitable[None]]) -> None:
    """Run `send` on the server's loop and wait for it (in order with the request's other
    sends); a failure is logged, not raised."""
    try:
        async_to_sync(send)()
    except Exception:
        logger.exception(UNREACHABLE)


def send_now(*fragments: tuple[str, str]) -> None:
    """Send (group, html) pairs in order; an empty html sends nothing to that group.
    For a caller already past the commit: `push` waits for it."""

    async def send_all() -> None:
        layer = get_channel_layer()
        for group, html in fragments:
            if html:
                await layer.group_send(group, {"type": "table.fragment", "html": html})

    _send(send_all)


Render = Callable[[], str]


class PushInsideTransaction(AssertionError):
    """A fragment was drawn while a transaction was still open: what it shows could
    still roll back, and the write lock was held while the template rendered."""


def in_a_transaction() -> bool:
    """Whether a transaction of the app's own is open. A test case's wrapping block does
    not count: the callbacks a test runs on "commit" run inside it."""
    return any(not block._from_testcase for block in connection.atomic_blocks)


def push(
    table_id: int,
    *,
    gm: Render | None,
    players: Render | None,
    members: dict[int, Render] | None = None,
) -> None:
    """The one way a change reaches the table's pages: after the commit, each audience's
    fragment is drawn from committed state and sent, in each language a socket at the
    table reads (`listening`). `gm` and `players` draw the GM's and the players'
    fragments; None (or an empty render) sends nothing to that audience, and the same
    callable for both is drawn once. `members`: by user id, what one player alone
    receives, sent after the players' fragment so that it has the last word on their
    pages. Every app's live.py pushes through here."""

    def send() -> None:
        if in_a_transaction():
            raise PushInsideTransaction("a live fragment must be rendered after the commit")
        for language, readers in listening(table_id).items():
            with translation.override(language):
                gm_html = gm() if gm is not None else ""
                players_html = (
                    gm_html if players is gm else (players() if players is not None else "")
                )
                own = [
                    (member_group(table_id, pk, language), render())
                    for pk, render in (members or {}).items()
                    if pk in readers
                ]
            send_now(
                (gm_group(table_id, language), gm_html),
                (players_group(table_id, language), players_html),
                *own,
            )

    transaction.on_commit(send)


def push_to_table(table_id: int, render: Render) -> None:
    """A fragment with nothing hidden in it, for the GM and the players alike."""
    push(table_id, gm=render, players=render)


def _committed_clock(clock_id: int):
    return queries.clock_faces().filter(pk=clock_id).first()


def _players_clock(clock_id: int, *, created: bool, was_hidden: bool, before=None) -> str:
    """One clock as players see it now, drawn from committed state: appended when new to
    them, drawn again when they had it, taken away when it is hidden or gone; nothing
    when their view of it is still `before` (the view they were sent)."""
    clock = _committed_clock(clock_id)
    if clock is None or clock.hidden:
        # A clock that players could see until now must vanish from their pages.
        new_to_players = created or was_hidden
        return "" if new_to_players else fragment("clock-remove", clock_id=clock_id)
    view = audience.clock_view(clock, access.PUBLIC)
    new_to_players = created or was_hidden
    if view == before and not new_to_players:
        return ""
    return fragment("clock-push", clock=view, created=new_to_players)


def _owners_clocks(
    table_id: int, owners: Iterable[int | None], before: dict[int, object] | None = None
) -> dict[int, Render]:
    """For each player who owns one of the clocks changed: every clock they see, drawn for
    them (their own, private or not, with what they may do to it). Whole, so that it holds
    whatever the players' fragment before it did to their list. `before`: by owner, their
    view of the one clock changed before the change; nothing is sent while it holds."""

    def draw(owner_id: int) -> Render:
        def render() -> str:
            viewer = access.Audience(is_gm=False, user_id=owner_id)
            clocks = list(queries.clocks_seen_by(table_id, viewer))
            if before is not None:
                old = before[owner_id]
                now = next((c for c in clocks if c.pk == old.pk), None)
                if now is not None and audience.clock_view(now, viewer) == old:
                    return ""
            return fragment("clock-list", clocks=audience.clock_views(clocks, viewer), oob=True)

        return render

    return {pk: draw(pk) for pk in set(owners) - {None}}


def push_clock(
    clock, *, created: bool = False, was_hidden: bool | None = None, before=None
) -> None:
    """`was_hidden` is the visibility before this change, when the change may have flipped
    it. `before`: the clock as it was (as queries.clock_faces
    loads it); an audience whose view of it is the same now is sent nothing, so that
    ticks players do not see (a clock whose progress is hidden) cannot even be counted
    on their socket. Drawn from the clock as committed: of two ticks at once, each page
    ends on the last."""
    if was_hidden is None:
        was_hidden = clock.hidden
    table_id, clock_id = clock.table_id, clock.pk

    def for_gm() -> str:
        committed = _committed_clock(clock_id)
        if committed is None:
            return fragment("clock-remove", clock_id=clock_id)
        view = audience.clock_view(committed, access.GM)
        return fragment("clock-push", clock=view, created=created)

    seen = None if before is None else audience.clock_view(before, access.PUBLIC)

    def for_players() -> str:
        return _players_clock(clock_id, created=created, was_hidden=was_hidden, before=seen)

    owner = clock.owner_id
    owned = (
        None
        if before is None or owner is None
        else {owner: audience.clock_view(before, access.Audience(is_gm=False, user_id=owner))}
    )
    push(table_id, gm=for_gm, players=for_players, members=_owners_clocks(table_id, [owner], owned))


def push_clock_setup(
    table_id: int,
    clock_ids: Iterable[int],
    *,
    created: int | None = None,
    was_hidden: Collection[int] = (),
    owners: Iterable[int | None] = (),
) -> None:
    """After a clock is made, edited or deleted (sessions.actions). The GM's whole
    list is drawn again: each clock's edit form offers the table's clocks to link to, so
    a clock made, renamed or deleted changes every one of them. Players get each of
    `clock_ids` (the clock changed and the clocks whose faces name it or are locked by it)
    as it is now; `was_hidden`: those players could not see before the change; `owners`:
    the players who own one of them, who get their own list."""
    ids = list(dict.fromkeys(clock_ids))

    def for_gm() -> str:
        clocks = list(queries.visible_clocks(table_id, is_gm=True))
        # The new-clock form's menus offer the table's clocks: each of the GM's pages gets
        # them anew (only the menus, so that a half-typed new clock keeps its name).
        menus = ClockForm(prefix=NEW_CLOCK, clocks=clocks)
        views = audience.clock_views(clocks, access.GM)
        return fragment("clock-list", clocks=views, oob=True) + "".join(
            menus[name].as_widget(attrs={"hx-swap-oob": "morph"}) for name in ("unlocks", "rival")
        )

    def for_players() -> str:
        return "".join(
            _players_clock(pk, created=pk == created, was_hidden=pk in was_hidden) for pk in ids
        )

    push(table_id, gm=for_gm, players=for_players, members=_owners_clocks(table_id, owners))


def push_clock_removed(table_id: int, clock_id: int, *, hidden: bool) -> None:
    def removed() -> str:
        return fragment("clock-remove", clock_id=clock_id)

    push(table_id, gm=removed, players=None if hidden else removed)


def push_roll(roll, *, created: bool = True) -> None:
    """A new line at the top of the log, or (`created=False`) a line drawn again because
    what it says has grown (a shared roll's consequences). Secret rolls reach the GM only.
    Drawn after commit, from the committed row: rolls are the busiest write at a table,
    and on SQLite every other writer waits while the write lock is held."""
    roll_id = roll.pk

    @cache
    def line():
        # Read once for both audiences' drawings.
        return queries.log_line(roll_id)

    def render(is_gm: bool) -> str:
        committed = line()
        if committed is None or (committed.secret and not is_gm):
            return ""
        # Each audience its own drawing: a note may name a clock or faction the GM hides.
        return fragment("roll-push" if created else "roll-redraw", roll=committed, is_gm=is_gm)

    def gm() -> str:
        return render(True)

    # Most lines name nothing the GM could hide: then one drawing serves both audiences.
    players = gm if not audience.REFERENCE.search(str(roll.note)) else lambda: render(False)
    push(roll.table_id, gm=gm, players=None if roll.secret else players)


async def push_presence(table_id: int, lists: dict[str, str]) -> None:
    """Presence is not a database change: it goes out at once, from the consumer, each
    language's list (`presence`) to its groups. Its own message type, so that a socket
    which shows no presence (the shared screen) skips it."""
    layer = get_channel_layer()
    for language, html in lists.items():
        for group in (gm_group(table_id, language), players_group(table_id, language)):
            await layer.group_send(group, {"type": "table.presence", "html": html})


def push_members(table) -> None:
    """The Players list, after someone joins or is removed: the GM's copy carries the
    Remove buttons, so each audience gets its own rendering."""

    def render(is_gm: bool) -> str:
        members = table.memberships.select_related("user")
        keeps = access.can_keep_table(access.GM if is_gm else access.PUBLIC)
        return fragment("members", members=members, keeps_table=keeps, table=table, oob=True)

    push(table.pk, gm=lambda: render(True), players=lambda: render(False))


def kick_member(table_id: int, user_id: int) -> None:
    """Close a removed member's sockets at the table, whichever process holds them, once
    the removal commits. A socket that read its membership before the removal and joined
    this group after the kick went is closed when its presence row is refused
    (sessions.presence.arrive): one opening meanwhile is never left open."""
    for language, _name in settings.LANGUAGES:
        _kick_group(member_group(table_id, user_id, language))


def kick_session(session_key: str) -> None:
    """Close every socket opened with this login session, whichever process holds them:
    after logging out, a page left open must stop receiving the table's pushes."""

    _kick_group(session_group(session_key))


def kick_screen(screen_id: int) -> None:
    """Close every socket opened with a shared-screen link, once its revoking commits."""
    _kick_group(screen_group(screen_id))


def _kick_group(group: str) -> None:
    async def send() -> None:
        await get_channel_layer().group_send(group, {"type": "table.kick"})

    transaction.on_commit(lambda: _send(send))


def close_login_sockets(sender, request, user, **kwargs) -> None:
    """On logout (the signal comes before the session is flushed, so its key still
    names the sockets)."""
    if request is not None and request.session.session_key:
        kick_session(request.session.session_key)


@dataclass(frozen=True)
class Snapshot:
    """Everything a reconnecting page may have missed, swapped in whole: the clocks, then
    the roll log and what the apps above add (sessions/panels.py). Drawn once for all the
    sockets of one table, audience and language (sessions/shared.py): a storm of 1,000 sockets drew
    it 1,000 times while each player's was drawn for them alone, and took twice as long.

    A player's snapshot differs from the other players' only in the clocks they own (their
    private ones, and the tick buttons on theirs): `owners`, the players who own a clock
    at the table, get their clock list drawn for them (`own_clocks`); every other player
    sees the clocks as the players at large do."""

    clocks: str
    rest: str
    owners: frozenset[int] = frozenset()

    def frame(self, own_clocks: str | None = None) -> str:
        return (self.clocks if own_clocks is None else own_clocks) + self.rest


def clock_list(table_id: int, viewer: access.Audience) -> str:
    clocks = audience.clock_views(queries.clocks_seen_by(table_id, viewer), viewer)
    return fragment("clock-list", clocks=clocks, oob=True)


def snapshot(table_id: int, is_gm: bool, language: str) -> Snapshot:
    with translation.override(language):
        rolls = queries.recent_rolls(table_id, is_gm)
        return Snapshot(
            clocks=clock_list(table_id, access.GM if is_gm else access.PUBLIC),
            rest=fragment("roll-log", rolls=rolls, is_gm=is_gm, oob=True)
            + panels.snapshot(table_id, is_gm),
            owners=frozenset() if is_gm else queries.clock_owners(table_id),
        )


def own_clocks(table_id: int, user_id: int, language: str) -> str:
    """A clock owner's list, for their snapshot."""
    with translation.override(language):
        return clock_list(table_id, access.Audience(is_gm=False, user_id=user_id))


def presence(table_id: int, since) -> dict[str, str]:
    """Who is here, drawn in each language the table's sockets read."""
    present = list(queries.present_users(table_id, since))
    lists = {}
    for language in listening(table_id):
        with translation.override(language):
            lists[language] = fragment("presence", present=present, oob=True)
    return lists
