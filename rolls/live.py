"""What the table sees change when a shared roll does: sent through sessions.live."""

from django.template.loader import render_to_string

from sessions import live


def flow_signal(table_id: int) -> str:
    return render_to_string("rolls/flow.html#flow-signal", {"table_id": table_id, "oob": True})


def push_flow(roll) -> None:
    """The shared roll shows each person their own buttons (only the roller rolls, only
    the GM sets position), so the push is a signal: every open page fetches its own
    rendering of the flow panel over HTTP. A secret roll signals only the GM."""
    table_id = roll.table_id

    def signal() -> str:
        return flow_signal(table_id)

    live.push(table_id, gm=signal, players=None if roll.secret else signal)


def flow_snapshot(table_id: int, is_gm: bool) -> str:
    """A reconnecting page fetches its flow panel again: it may have missed any step."""
    return flow_signal(table_id)
