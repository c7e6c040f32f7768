"""What the table sees change when a shared roll does: sent through sessions.live."""

from django.template.loader import render_to_string

from sessions import live

from .derived import revision


def flow_signal(table_id: int, revision: int) -> str:
    """`revision`: the last step this audience sees; a page whose panel shows it (the
    sender's, drawn in its own answer) does not fetch it again."""
    context = {"table_id": table_id, "oob": True, "revision": revision}
    return render_to_string("rolls/flow.html#flow-signal", context)


def push_flow(roll) -> None:
    """The shared roll shows each person their own buttons (only the roller rolls, only
    the GM sets position), so the push is a signal: every open page fetches its own
    rendering of the flow panel over HTTP. A secret roll signals only the GM."""
    table_id = roll.table_id

    def signal(is_gm: bool) -> str:
        return flow_signal(table_id, revision(table_id, is_gm))

    live.push(
        table_id,
        gm=lambda: signal(True),
        players=None if roll.secret else lambda: signal(False),
    )


def flow_snapshot(table_id: int, is_gm: bool) -> str:
    """A reconnecting page may have missed any step: it fetches its flow panel again
    unless the panel already shows the last one. Every page gets the snapshot as its
    socket opens, and a page just loaded is current: a refetch then is only a redraw
    that races the first thing the person does."""
    return flow_signal(table_id, revision(table_id, is_gm))
