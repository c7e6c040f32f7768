"""The shared screen's socket: it tells the screen that something players can see has
changed, and the screen fetches its body once over HTTP.

The socket joins the table's players group in the table's language (and its presence row
says so, so that pushes are drawn in it), so it hears exactly the pushes a player's page
hears, and none of the GM's. It forwards none of their bytes: each screen is laid
out for a TV and draws things no single push carries (every PC's stress, the books, the
roll in progress), so a push becomes a small signal, and the body the screen then
fetches is drawn as the players see it by the same view that drew the page. Nothing is
added to a push when no screen is open: the signal is made here, per open screen, from
the push the players' pages get anyway.

Two ways in: a member's own screen (logged in, on the table's id) and the link the GM
hands out (no login, on its token; the TV and each overlay of a stream). A link revoked
or made anew closes its sockets (`live.kick_screen`), each saying so first, and a socket
opened with it is refused from then on.

The signal names no address: each page fetches its own (the TV, an overlay with its
size), so one signal serves every page the link opens.
"""

import asyncio

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import translation

from sessions import live, presence, seating
from sessions.consumers import TableConsumer
from sessions.models import Table

from .screen import REVOKED_MESSAGE, shared_screen

# A step at the table often pushes several fragments at once (the roll's line, a clock,
# the flow panel's signal): one signal for all that arrive within this time.
COALESCE_SECONDS = 0.15
# Closing with a code of the app's own: the page's socket does not try again (it would
# only be refused), and the page keeps the message the last frame brought.
REVOKED = 4404


class ScreenConsumer(TableConsumer):
    user = None
    signal_task: asyncio.Task | None = None

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        token = kwargs.get("token")
        if token is None:
            self.table_id = int(kwargs["table_id"])
            seat = await seating.seat(self.scope.get("session"), self.table_id)
            if seat is None:
                await self.close()
                return
            self.user = seat.user
            self.language = await database_sync_to_async(self.table_language)()
            # Always the players' group, also for the GM: a screen is seen by the room.
            groups = self.member_groups(gm=False)
        else:
            screen = await database_sync_to_async(shared_screen)(token)
            if screen is None:
                await self.close()
                return
            self.table_id = screen.table_id
            self.language = await database_sync_to_async(self.table_language)()
            groups = [
                live.players_group(self.table_id, self.language),
                live.screen_group(screen.pk),
            ]
        await self.join(groups)
        # Asked again once in the groups: a link revoked in between has sent its kick
        # before this socket could hear it.
        if token is not None and await database_sync_to_async(shared_screen)(token) is None:
            await self.close()
            return
        await self.accept()
        self.accepted = True
        with translation.override(self.language):
            self.signal = render_to_string("crews/screen.html#screen-signal")
        # Pushes are drawn in the table's language from now on, also with no page open
        # that reads it.
        if not await self.arrive():
            await self.close()
            return
        # Catch up: whatever changed while this screen was away is fetched now.
        await self.send(text_data=self.signal)
        # A member's screen is one of their pages: it counts them as here.
        if self.user is not None:
            await self.tell_presence()

    async def disconnect(self, code: int) -> None:
        if self.signal_task is not None:
            self.signal_task.cancel()
        if not hasattr(self, "joined"):
            return
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.accepted:
            await presence.leave(self.channel_name)
            if self.user is not None:
                await self.tell_presence()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # A member's screen pings like their other pages; the token link has no one to mark.
        if self.user is not None:
            await super().receive(text_data, bytes_data)

    async def table_fragment(self, event: dict) -> None:
        if self.signal_task is None:
            self.signal_task = asyncio.create_task(self.send_signal())

    async def table_presence(self, event: dict) -> None:
        """Who is here is not shown on a screen: no signal, no fetch."""

    async def table_kick(self, event: dict) -> None:
        if self.signal_task is not None:
            self.signal_task.cancel()
        if self.user is not None:
            # A member logged out or removed: their page shows it is offline, as elsewhere.
            await self.close()
            return
        # Only the link's own group kicks a token socket: the link was revoked or renewed.
        await self.send(text_data=await database_sync_to_async(self.revoked_frame)())
        await self.close(code=REVOKED)

    def table_language(self) -> str:
        return Table.objects.filter(pk=self.table_id).values_list("language", flat=True).first()

    def revoked_frame(self) -> str:
        """The last frame, in the table's language like the rest of the screen."""
        context = {"oob": True, "revoked_message": REVOKED_MESSAGE}
        with translation.override(self.table_language()):
            return render_to_string("crews/screen.html#screen-revoked", context)

    async def send_signal(self) -> None:
        await asyncio.sleep(COALESCE_SECONDS)
        self.signal_task = None
        await self.send(text_data=self.signal)
