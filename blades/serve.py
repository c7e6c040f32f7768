"""The application as daphne serves it (`make run`, the browser, scale and benchmark
servers): blades.asgi's, after the server process's one start-up step. Tests that drive
the application in-process import blades.asgi, which only builds it."""

from blades import server
from blades.asgi import application

server.start()

__all__ = ["application"]
