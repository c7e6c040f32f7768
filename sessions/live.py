"""The one place that names channel groups and sends fragments to browsers.

Every table has two groups: its players and its GM. Each push is rendered per
audience, so what the GM hides is never rendered into a player's frame at all.
Pushes are scheduled with `transaction.on_commit`: a browser never sees a change that
could still roll back, and never sees it before the database does.
"""

from channels.layers import get_channel_layer
from django.db import transaction
from django.template.loader import render_to_string

from blades import outbox

from . import audience, queries

PAGE = "sessions/table.html"
CREW_PAGE = "crews/crew.html"
FACTIONS_PAGE = "crews/factions.html"


def players_group(table_id: int) -> str:
    return f"table-{table_id}-players"


def gm_group(table_id: int) -> str:
    return f"table-{table_id}-gm"


def session_group(session_key: str) -> str:
    """Every socket opened with one login session, so that logging out closes them all."""
    return f"login-{session_key}"


def groups_for(table_id: int, is_gm: bool, session_key: str | None = None) -> list[str]:
    groups = [gm_group(table_id) if is_gm else players_group(table_id)]
    return [*groups, session_group(session_key)] if session_key else groups


def fragment(partial: str, **context) -> str:
    return render_to_string(f"{PAGE}#{partial}", context)


# By the time anything is sent the change has committed: an unreachable layer (Redis
# down) must not turn the request into an error page. Nothing is lost for the pages: the
# outage has closed their sockets, and the snapshot each receives on reconnecting brings
# the change.
UNREACHABLE = "channel layer unreachable; the snapshot will catch pages up"


def _send(*fragments: tuple[str, str]) -> None:
    """Send (group, html) pairs in order; an empty html sends nothing to that group."""

    async def send_all() -> None:
        layer = get_channel_layer()
        for group, html in fragments:
            if html:
                await layer.group_send(group, {"type": "table.fragment", "html": html})

    outbox.post(send_all, failure=UNREACHABLE)


def push(table_id: int, *, gm_html: str, players_html: str) -> None:
    """Send after commit; an empty string sends nothing to that audience."""
    transaction.on_commit(
        lambda: _send((gm_group(table_id), gm_html), (players_group(table_id), players_html))
    )


def push_clock(clock, *, created: bool = False, was_hidden: bool | None = None) -> None:
    """`was_hidden` is the visibility before this change, when the change may have flipped it."""
    if was_hidden is None:
        was_hidden = clock.hidden
    new_to_players = created or was_hidden
    gm_html = fragment("clock-push", clock=clock, is_gm=True, created=created)
    if clock.hidden:
        # A clock that players could see until now must vanish from their pages.
        players_html = "" if new_to_players else fragment("clock-remove", clock_id=clock.pk)
    else:
        players_html = fragment("clock-push", clock=clock, is_gm=False, created=new_to_players)
    push(clock.table_id, gm_html=gm_html, players_html=players_html)


def push_clock_removed(table_id: int, clock_id: int, *, hidden: bool) -> None:
    html = fragment("clock-remove", clock_id=clock_id)
    push(table_id, gm_html=html, players_html="" if hidden else html)


def push_roll(roll) -> None:
    """Rendered after commit, like the crew's pushes: rolls are the busiest write at a
    table, and on SQLite every other writer waits while the write lock is held."""

    def send() -> None:
        html = fragment("roll-push", roll=roll, is_gm=True)
        players_html = html
        if roll.secret:
            players_html = ""
        elif audience.REFERENCE.search(roll.note):
            # The note names a clock or a faction, which the GM may keep hidden.
            players_html = fragment("roll-push", roll=roll, is_gm=False)
        _send((gm_group(roll.table_id), html), (players_group(roll.table_id), players_html))

    transaction.on_commit(send)


async def push_presence(table_id: int, html: str) -> None:
    """Presence is not a database change: it goes out at once, from the consumer."""
    layer = get_channel_layer()
    for group in (gm_group(table_id), players_group(table_id)):
        await layer.group_send(group, {"type": "table.fragment", "html": html})


def kick(channel_names: list[str]) -> None:
    """Close the sockets of a removed player, whichever process holds them."""

    def send() -> None:
        async def send_all() -> None:
            layer = get_channel_layer()
            for name in channel_names:
                await layer.send(name, {"type": "table.kick"})

        outbox.post(send_all, failure=UNREACHABLE)

    transaction.on_commit(send)


def kick_session(session_key: str) -> None:
    """Close every socket opened with this login session, whichever process holds them:
    after logging out, a page left open must stop receiving the table's pushes."""

    async def send() -> None:
        await get_channel_layer().group_send(session_group(session_key), {"type": "table.kick"})

    transaction.on_commit(lambda: outbox.post(send, failure=UNREACHABLE))


def close_login_sockets(sender, request, user, **kwargs) -> None:
    """On logout (the signal comes before the session is flushed, so its key still
    names the sockets)."""
    if request is not None and request.session.session_key:
        kick_session(request.session.session_key)


def snapshot(table_id: int, is_gm: bool) -> str:
    """Everything a reconnecting page may have missed, swapped in whole."""
    return fragment(
        "snapshot",
        clocks=queries.visible_clocks(table_id, is_gm),
        rolls=queries.recent_rolls(table_id, is_gm),
        table_id=table_id,
        is_gm=is_gm,
        oob=True,
    ) + crew_snapshot(table_id, is_gm)


# --- The crew and the factions --------------------------------------------------------


def push_crew(table_id: int, *, parts, players: bool = True) -> None:
    """Push the named sections of the crew sheet (and the crew summary other pages show).

    Rendered after commit, from the committed books: the write lock is not held while
    templates render, and concurrent changes each push the state they left behind.
    Players all share the crew's permission flags, so one render serves every player.
    `players=False` when the change was to something players cannot see (a hidden
    faction): their books did not change, and a push arriving would tell of the GM's move.
    """

    def send() -> None:
        from crews import queries as crew_queries

        crew = crew_queries.crew_sheet(table_id)
        if crew is None:
            return
        for is_gm in (True, False) if players else (True,):
            context = {**crew_queries.sheet_context(crew, is_gm=is_gm), "parts": parts}
            html = render_to_string(f"{CREW_PAGE}#crew-push", context)
            _send((gm_group(table_id) if is_gm else players_group(table_id), html))

    transaction.on_commit(send)


def push_factions(table_id: int, *, players: bool = True) -> None:
    """The whole ladder, per audience, rendered after commit: a tier change reorders it,
    and a hidden faction is simply absent from the players' render. `players=False` when
    only a hidden faction changed: even an unchanged ladder arriving then would tell the
    players that the GM just did something with a faction they cannot see."""

    def send() -> None:
        for is_gm in (True, False) if players else (True,):
            html = _faction_ladder(table_id, is_gm)
            _send((gm_group(table_id) if is_gm else players_group(table_id), html))

    transaction.on_commit(send)


def _faction_ladder(table_id: int, is_gm: bool) -> str:
    from crews import queries as crew_queries

    context = {
        "factions": crew_queries.visible_factions(table_id, is_gm),
        "is_gm": is_gm,
        "table_id": table_id,
        "oob": True,
    }
    return render_to_string(f"{FACTIONS_PAGE}#faction-ladder", context)


def crew_snapshot(table_id: int, is_gm: bool) -> str:
    """The crew's books and the faction ladder, for a page catching up after a reconnect."""
    from crews import queries as crew_queries

    html = _faction_ladder(table_id, is_gm)
    crew = crew_queries.crew_sheet(table_id)
    if crew is not None:
        context = {
            **crew_queries.sheet_context(crew, is_gm=is_gm),
            "parts": ("books", "claims", "cohorts"),
        }
        html += render_to_string(f"{CREW_PAGE}#crew-push", context)
    return html


def presence(table_id: int, since) -> str:
    return fragment("presence", present=queries.present_users(table_id, since), oob=True)


def push_to_table(table_id: int, html: str) -> None:
    """A fragment with nothing hidden in it, for the GM and the players alike."""
    push(table_id, gm_html=html, players_html=html)


def push_flow(roll) -> None:
    """The shared roll shows each person their own buttons (only the roller rolls, only
    the GM sets position), so the push is a signal: every open page fetches its own
    rendering of the flow panel over HTTP. A secret roll signals only the GM."""
    html = render_to_string(
        "sessions/flow.html#flow-signal", {"table_id": roll.table_id, "oob": True}
    )
    push(roll.table_id, gm_html=html, players_html="" if roll.secret else html)
