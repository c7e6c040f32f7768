"""Helpers the database-backed suites share: logging in, a table socket, the shared
roll's loaded dice and shortcuts. Fixtures live in the conftests; test modules import
helpers from here, never from one another.

Not for `tests/rules`, which also runs without Django.
"""

import contextlib
import re
import threading

from django.conf import settings
from django.test import Client

from blades.rules.character import ACTIONS
from characters.models import Character
from rolls import actions as flow
from sessions.models import Membership

ORIGIN = (b"origin", b"http://127.0.0.1")


def session_cookie(user) -> str:
    """`sessionid=...` of a session made in the database for `user`, as the login view
    makes one, without checking (and hashing) a password."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


# A page's CSRF token is masked anew for every response: bytes that differ between two
# drawings of the same page.
CSRF_TOKEN = re.compile(rb'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


# A part of a page fetched as its fold first opens (a finished roll's story): whoever
# reads a page whole opens every fold, and what it fetches is part of what they are shown.
FOLD = re.compile(rb'hx-get="([^"]+)"[^>]*hx-trigger="toggle[^"]*"')


def folds(client: Client, page: bytes, **extra) -> dict:
    """The answer to each of `page`'s folds, fetched as its script fetches it, by URL."""
    parts = {}
    for url in dict.fromkeys(FOLD.findall(page)):
        response = client.get(url.decode(), headers={"HX-Request": "true"}, **extra)
        assert response.status_code == 200, url
        parts[url.decode()] = response
    return parts


def with_folds(client: Client, url: str, **extra) -> str:
    """The page at `url` with every fold opened, as one text."""
    page = client.get(url, **extra)
    assert page.status_code == 200, url
    opened = [part.content for part in folds(client, page.content, **extra).values()]
    return b"".join([page.content, *opened]).decode()


def seen_by(user, *urls) -> bytes:
    """What `user` gets of each page, whole and as htmx asks for it (CSRF tokens taken
    out, so that two drawings of the same page compare)."""
    client = Client()
    client.force_login(user)
    body = b""
    for url in urls:
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(url, headers=headers)
            assert response.status_code == 200, url
            opened = folds(client, response.content).values()
            body += b"".join([response.content, *(part.content for part in opened)])
    return CSRF_TOKEN.sub(rb"\1", body)


async def connect(user, table_id: int, origin=ORIGIN, language: str | None = None):
    """A table socket through the whole ASGI app, as `user` (None: logged out), from a
    browser asking for `language` (its Accept-Language) if given."""
    from channels.db import database_sync_to_async

    from blades.asgi import application
    from tests.sockets import Socket

    headers = [origin]
    if language is not None:
        headers.append((b"accept-language", language.encode()))
    if user is not None:
        cookie = await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    communicator = Socket(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await communicator.connect()
    return communicator, connected


async def make_table():
    """A table with its GM and one player, made from async tests."""
    from channels.db import database_sync_to_async

    from tests.factories import MembershipFactory, TableFactory

    def made():
        table = TableFactory()
        return table, table.gm, MembershipFactory(table=table).user

    return await database_sync_to_async(made)()


async def open_socket(table, client: Client, *headers: tuple[bytes, bytes]):
    """A table socket with a logged-in test client's session, and the headers given."""
    from blades.asgi import application
    from tests.sockets import Socket

    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    communicator = Socket(
        application, f"/ws/tables/{table.pk}/", headers=[*headers, (b"cookie", cookie)]
    )
    connected, _ = await communicator.connect()
    return communicator, connected


async def drain(communicator) -> list[str]:
    """Every frame until the socket falls quiet."""
    frames = []
    while not await communicator.receive_nothing(timeout=0.3):
        frames.append(await communicator.receive_from())
    return frames


async def drain_greeting(communicator) -> str:
    """On connect the server sends the snapshot, then the presence list. Sockets opened
    together may get more presence lists after it, one per arrival or one for several
    (sessions/shared.py): read on with `next_frame_with`, or `drain`."""
    snapshot = await communicator.receive_from()
    presence = await communicator.receive_from()
    return snapshot + presence


async def next_frame_with(communicator, text: str) -> str:
    """The next frame holding `text`; presence frames come and go as sockets connect."""
    while True:
        frame = await communicator.receive_from()
        if text in frame:
            return frame


async def frames_until(communicator, *texts: str) -> str:
    """Frames read until each of `texts` has come, in whatever order, in one string."""
    read = ""
    while not all(text in read for text in texts):
        read += await communicator.receive_from()
    return read


@contextlib.asynccontextmanager
async def database_thread_held():
    """The process's one database thread kept busy until the block ends: database work
    asked for meanwhile queues behind it, as it does in a busy server."""
    import asyncio

    from channels.db import database_sync_to_async

    from tests.sockets import WAIT

    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        entered.set()
        release.wait(WAIT)

    held = asyncio.ensure_future(database_sync_to_async(hold)())
    assert await asyncio.to_thread(entered.wait, WAIT)
    try:
        yield
    finally:
        release.set()
        await held


# --- The shared roll --------------------------------------------------------------------


class Dice:
    """Hands out the faces a test wants, in order."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def member(table, user) -> Membership:
    return Membership.objects.get(table=table, user=user)


def fresh(character) -> Character:
    return Character.objects.get(pk=character.pk)


def give_ability(character, key: str) -> None:
    """The character takes the special ability `key` (from its playbook or, as a Veteran,
    another's)."""
    from characters.models import SpecialAbility
    from tests.factories import CharacterAbilityFactory

    ability = SpecialAbility.objects.filter(key=key, playbook__table=None).first()
    CharacterAbilityFactory(character=character, ability=ability)


def call(roll):
    """The GM's call as proposed, which every roll waits for before its dice."""
    gm = Membership.objects.get(table_id=roll.table_id, role=Membership.Role.GM)
    return flow.accept_as_proposed(by=gm, roll=roll)


def carry_armor(character, *, heavy: bool = False) -> None:
    """Armor (and +Heavy) checked on a normal load: the armor boxes this score gives."""
    from tests.factories import CharacterItemFactory

    Character.objects.filter(pk=character.pk).update(load="normal")
    CharacterItemFactory(character=character, name="Armor", load=2, armor="armor", checked=True)
    if heavy:
        CharacterItemFactory(
            character=character, name="+Heavy", load=3, armor="heavy", checked=True
        )


def start(ada_m, ada, **kwargs):
    """A proposed roll the GM has called as proposed (a flashback waits for its cost)."""
    roll = flow.start_roll(
        by=ada_m, character=ada, goal="slip past the guard", action="prowl", **kwargs
    )
    return roll if roll.flashback else call(roll)


def to_downtime(table, gm, **target) -> None:
    """Play the loop from a score to downtime's activities with fixed dice (no faction at
    +3 status: the entanglement passes the crew by). `target`: start_score's target."""
    from play import phases

    target = target or {"target_name": "A vault"}
    phases.start_score(table=table, plan="stealth", detail="Roof", **target)
    phases.roll_engagement(table=table, roller=gm, marks={}, rng=Dice(4))
    phases.end_score(table=table)
    # A minor job's 2 coin leave the crew at the 4 its lair keeps: downtime can end.
    phases.payoff(table=table, size="minor")
    phases.take_heat(table=table, exposure="contained")
    phases.roll_entanglement(table=table, roller=gm, rng=Dice(6, 6))
    phases.resolve_entanglement(table=table, roller=gm, name="Cooperation", choice="avoid")


# --- What the channel layer carried ----------------------------------------------------


def listen(table_id: int, is_gm: bool, language: str = "en", user_id: int | None = None) -> str:
    """A channel in the table's GM or players group, as a page's socket would be: with a
    presence row, so that pushes are drawn in its language; with `user_id`, in that
    member's own group too."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.utils import timezone

    from sessions import live
    from sessions.models import Presence

    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    groups = live.groups_for(table_id, is_gm, language)[:1]
    if user_id is not None:
        groups.append(live.member_group(table_id, user_id, language))
    for group in groups:
        async_to_sync(layer.group_add)(group, channel)
    Presence.objects.create(
        table_id=table_id,
        user_id=user_id,
        channel_name=channel,
        language=language,
        seen=timezone.now(),
    )
    return channel


def frames(channel: str, quiet: float = 0.5) -> list[str]:
    """Every fragment sent to `channel` so far, in order: received until the channel has
    been quiet for `quiet` seconds (as channels' `receive_nothing` proves an absence).
    Works on the in-memory layer and on Redis alike."""
    import asyncio

    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    sent = []

    async def drain():
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), timeout=quiet)
            except TimeoutError:
                return
            sent.append(message["html"])

    async_to_sync(drain)()
    return sent


def frames_with(channel: str, *texts: str) -> str:
    """The fragments sent to `channel`, read until each of `texts` has come (or the socket
    helpers' WAIT has passed), in one string: a push through a busy Redis may come after
    `frames`' quiet half second."""
    import asyncio

    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from tests.sockets import WAIT

    layer = get_channel_layer()

    async def read() -> str:
        sent = ""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(WAIT):
                while not all(text in sent for text in texts):
                    sent += (await layer.receive(channel))["html"]
        return sent

    return async_to_sync(read)()


def wizard_answers(playbook) -> list[dict]:
    """A post for each wizard step making "Vex" of `playbook`: one dot in each of four
    actions the playbook gives nothing to, its first ability and friends."""
    free = [a for a in ACTIONS if a not in playbook.dots][:4]
    friends = [f.pk for f in playbook.friends.all()]
    return [
        {"step": "playbook", "playbook": playbook.pk},
        {"step": "heritage", "heritage": "skovlan", "heritage_detail": "Miner's child"},
        {"step": "background", "background": "military", "background_detail": "Deserter"},
        {"step": "actions", **dict.fromkeys(free, 1)},
        {"step": "ability", "ability": playbook.abilities.first().pk},
        {"step": "friends", "close_friend": friends[0], "rival": friends[1]},
        {"step": "vice", "vice": "gambling", "vice_purveyor": "Spades' dice den"},
        {"step": "name", "name": "Vex", "alias": "the Knife", "look": "Scarred"},
    ]


def foundry_choices(
    playbook="cutter", heritage="skovlan", background="military", vice="pleasure"
) -> dict:
    """The Foundry import's confirmation: a standard playbook and options, as posted."""
    from characters.models import Option, Playbook

    return {
        "playbook": Playbook.objects.get(table=None, key=playbook).pk,
        "heritage": Option.objects.get(kind="heritage", key=heritage).pk,
        "background": Option.objects.get(kind="background", key=background).pk,
        "vice": Option.objects.get(kind="vice", key=vice).pk,
    }
