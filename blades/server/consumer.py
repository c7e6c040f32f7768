"""How a socket's consumer takes each message from the channel layer."""

from channels.consumer import get_handler_name


class FramesSkipTheDatabase:
    """Mixed in before Channels' consumer class: its `dispatch`, without the database.

    Channels closes stale database connections before every message it hands a
    consumer: a crossing to the process's one sync thread for every frame to every
    socket, queued behind whatever requests that thread is serving. Pushing a frame
    never touches the database, and the handlers that do go through
    database_sync_to_async, which closes stale connections on its own.
    """

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
