"""The table socket: it only pushes (and carries presence). Every change comes over HTTP."""

import asyncio

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from blades.server.consumer import FramesSkipTheDatabase
from blades.server.language import socket_language

from . import layer, live, presence, seating, shared


class TableConsumer(FramesSkipTheDatabase, AsyncWebsocketConsumer):
    groups: list[str] = []

    # Set on the other sockets of this process when one of them sees the layer fail.
    layer_lost = False
    # Set once it has joined its groups and been accepted.
    accepted = False
    # Set once the socket is closing: it stays in its groups until the close completes,
    # and a frame pushed to it meanwhile (a kicked member's other socket leaving, say)
    # has no one to go to.
    closing = False

    async def __call__(self, scope, receive, send) -> None:
        self.run = asyncio.current_task()
        try:
            await super().__call__(scope, receive, send)
        except layer.LAYER_FAILURES:
            # The one consumer whose command failed: the others may wait on, deaf (see layer).
            # One that failed while joining says nothing of the others until the key does;
            # one that had joined ends them at once, before any of them can take the
            # layer's shared receive over a connection to the new Redis.
            if not self.layer_lost:
                layer.OPEN_SOCKETS.discard(self)
                if self.accepted:
                    layer.lose()
                else:
                    await layer.check()
            raise
        except asyncio.CancelledError:
            if self.layer_lost:
                raise layer.LayerLost("the channel layer lost this socket's groups") from None
            raise
        finally:
            layer.OPEN_SOCKETS.discard(self)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        seat = await seating.seat(self.scope.get("session"), self.table_id)
        if seat is None:
            await self.close()
            return
        self.user, self.is_gm = seat.user, seat.is_gm
        # The session was read while seating: asking it again needs no database.
        self.language = socket_language(self.scope)
        await self.join(self.member_groups(gm=self.is_gm))
        await self.accept()
        self.accepted = True
        # Written before the snapshot is drawn: a push that reads the table's languages
        # before the row is in began before the snapshot, which then holds its change.
        if not await self.arrive():
            await self.close()
            return
        # Catch up: whatever changed while this page was away arrives now. Drawn after
        # the groups are joined, so a change pushed before that is in the drawing.
        table_id, is_gm, user_id, language = self.table_id, self.is_gm, self.user.pk, self.language
        drawn = await shared.drawing(
            ("snapshot", table_id, is_gm, language),
            lambda: live.snapshot(table_id, is_gm, language),
        )
        own = None
        if not is_gm and user_id in drawn.owners:
            own = await shared.drawing(
                ("own clocks", table_id, user_id, language),
                lambda: live.own_clocks(table_id, user_id, language),
            )
        await self.send(text_data=drawn.frame(own))
        await self.tell_presence()

    def member_groups(self, *, gm: bool) -> list[str]:
        """A seated member's socket: in their own group (removing them closes it), in
        their audience's, and in their login's (logging out closes it), each in the
        socket's language."""
        session_key = self.scope["session"].session_key
        return [
            live.member_group(self.table_id, self.user.pk, self.language),
            *live.groups_for(self.table_id, gm, self.language, session_key),
        ]

    async def join(self, groups: list[str]) -> None:
        self.joined = groups
        # Counted before it joins: a Redis lost from here on must end this socket too.
        layer.OPEN_SOCKETS.add(self)
        await layer.watch()
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def close(self, code=None, reason=None) -> None:
        self.closing = True
        await super().close(code, reason)

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        """A frame for a closing socket is dropped: a closed socket is not an error. Daphne
        refuses one sent between the first close frame and the end of the connection,
        whichever side began the close (autobahn's "Attempt to send on a closed
        protocol"), and the refusal would end this consumer with a traceback."""
        if self.closing:
            return
        try:
            await super().send(text_data, bytes_data, close)
        except Disconnected:
            self.closing = True

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "joined"):
            return
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.accepted:
            await presence.leave(self.channel_name)
            await self.tell_presence()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The only thing a browser sends is the presence ping.
        presence.ping(self.channel_name)

    async def table_fragment(self, event: dict) -> None:
        await self.send(text_data=event["html"])

    table_presence = table_fragment

    async def table_kick(self, event: dict) -> None:
        await self.close()

    async def arrive(self) -> bool:
        """Whether the socket may stay: one arriving for a member removed since it read
        its membership is not written, and must close (sessions.presence.arrive)."""
        user_id = self.user.pk if self.user is not None else None
        return await presence.arrive(self.channel_name, self.table_id, user_id, self.language)

    async def tell_presence(self) -> None:
        """The table's pages get who is here, once this socket's row is written or gone."""
        table_id = self.table_id

        def draw() -> dict[str, str]:
            return live.presence(table_id, since=timezone.now() - presence.PRESENCE_TIMEOUT)

        async def push(lists: dict[str, str]) -> None:
            try:
                await live.push_presence(table_id, lists)
            except layer.LAYER_FAILURES:
                # Only the list failed to go, and this drawing's callers have all joined
                # their groups: not a reason to end their sockets, unless Redis has lost
                # this process's groups (after a restart, the first command over each
                # pooled connection that outlived the old server fails).
                await layer.check()

        # The sockets arriving (or leaving) together get one list, pushed once.
        await shared.drawing(("presence", table_id), draw, then=push)
