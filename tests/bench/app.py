"""What the load benchmark serves on the app's side: the app as daphne serves it
(blades/serve.py), with the pause monitor on (tests/bench/pauses.py)."""

from blades.serve import application as served
from tests.bench import pauses

application = pauses.watch(served)
