"""How daphne hands an HTTP request to Django: in one crossing to the shared thread."""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import FileResponse

from . import hashing


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler, with each request's middleware and view run in one hop.

    The stock handler runs the middleware chain on the event loop and crosses to a
    thread and back for every sync piece of it: each middleware's `process_request` and
    `process_response`, whitenoise (sync only) and the view, some twenty round trips a
    request. Under load every crossing queues behind the frames the loop is sending, so
    a roll took about a second to reach the table while the process was half idle. It
    also starts a new thread per request (`ThreadSensitiveContext`).

    Here the chain is loaded synchronously and a request crosses once, to the one
    thread all of this process's sync work shares (channels' `database_sync_to_async`
    included). The database sees one writer per process: SQLite writers no longer wait
    out each other's busy-timeout sleeps. Posts to views that hash passwords are the
    exception (blades/server/hashing.py).
    """

    def __init__(self):
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)

    async def run_get_response(self, request):
        if request.method == "POST" and hashing.hashes_passwords_at(request.path_info):
            serve = sync_to_async(
                hashing.served_apart(self.get_response),
                thread_sensitive=False,
                executor=hashing.APART,
            )
        else:
            serve = sync_to_async(self.get_response)
        response = await serve(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        return response
