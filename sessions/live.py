"""The one place that names channel groups and sends fragments to browsers.

Every table has two groups: its players and its GM. Each push is rendered per
audience, so what the GM hides is never rendered into a player's frame at all.
Pushes are scheduled with `transaction.on_commit`: a browser never sees a change that
could still roll back, and never sees it before the database does.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.template.loader import render_to_string

from . import queries

PAGE = "sessions/table.html"


def players_group(table_id: int) -> str:
    return f"table-{table_id}-players"


def gm_group(table_id: int) -> str:
    return f"table-{table_id}-gm"


def groups_for(table_id: int, is_gm: bool) -> list[str]:
    return [gm_group(table_id) if is_gm else players_group(table_id)]


def fragment(partial: str, **context) -> str:
    return render_to_string(f"{PAGE}#{partial}", context)


def _send(group: str, html: str) -> None:
    if html:
        async_to_sync(get_channel_layer().group_send)(
            group, {"type": "table.fragment", "html": html}
        )


def push(table_id: int, *, gm_html: str, players_html: str) -> None:
    """Send after commit; an empty string sends nothing to that audience."""

    def send() -> None:
        _send(gm_group(table_id), gm_html)
        _send(players_group(table_id), players_html)

    transaction.on_commit(send)


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
    html = fragment("roll-push", roll=roll)
    push(roll.table_id, gm_html=html, players_html="" if roll.secret else html)


async def push_presence(table_id: int, html: str) -> None:
    """Presence is not a database change: it goes out at once, from the consumer."""
    layer = get_channel_layer()
    for group in (gm_group(table_id), players_group(table_id)):
        await layer.group_send(group, {"type": "table.fragment", "html": html})


def kick(channel_names: list[str]) -> None:
    """Close the sockets of a removed player, whichever process holds them."""

    def send() -> None:
        layer = get_channel_layer()
        for name in channel_names:
            async_to_sync(layer.send)(name, {"type": "table.kick"})

    transaction.on_commit(send)


def snapshot(table_id: int, is_gm: bool) -> str:
    """Everything a reconnecting page may have missed, swapped in whole."""
    return fragment(
        "snapshot",
        clocks=queries.visible_clocks(table_id, is_gm),
        rolls=queries.recent_rolls(table_id, is_gm),
        table_id=table_id,
        is_gm=is_gm,
        oob=True,
    )


def presence(table_id: int, since) -> str:
    return fragment("presence", present=queries.present_users(table_id, since), oob=True)


def push_to_table(table_id: int, html: str) -> None:
    """A fragment with nothing hidden in it, for the GM and the players alike."""
    push(table_id, gm_html=html, players_html=html)
