"""The secret sweep: the GM plays a whole session through the same URLs the pages use,
with every hidden thing (a GM-only clock, a hidden faction and its goal clock, hidden
faction notes, GM notes, a secret roll) chosen wherever a step allows it; a player's
socket, the player's every page and fragment, and the shared-screen link (the TV, the
overlays for a stream, the JSON feed) and its sockets are scanned, byte by byte, for the
marker in each hidden name and note.

Which actions there are comes from the URL resolver: every URL that takes a POST (and
every step of the shared roll, every move of the sheet) must be played here or be
listed in NOT_HIDDEN with the reason it cannot touch a hidden thing. A new GM action
without a case fails `test_every_post_url_is_swept`.

After every part the GM also changes what players must not be able to tell at all: a
"known, progress hidden" clock's fill, and whether a faction has notes it keeps from
them. Everything players and the screen receive (every page and fragment, the screen and
its overlays and feed, the journal and its Markdown, posts to the players' Discord
channel) is the same, byte for byte apart from tokens, before and after; and their
sockets hear nothing of it.
"""

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import resolve, reverse

from blades.asgi import application
from chronicle import discord
from tests.helpers import CSRF_TOKEN, folds
from tests.security.urls import UNKNOWN_ID, _patterns, character_moves
from tests.sockets import Socket

HIDDEN_CLOCK = "Zq-sweep-clock"
CABAL = "Zq-sweep-cabal"
CABAL_NOTES = "Zq-sweep-cabal-notes"
CABAL_GOAL = "Zq-sweep-cabal-goal"
SECRET_NOTES = "Zq-sweep-faction-notes"  # a visible faction's hidden notes
GM_NOTE = "Zq-sweep-gm-note"
SECRET_ROLL = "Zq-sweep-secret-roll"
SESSION_NOTES = "Zq-sweep-session-notes"  # the GM's notes in the session journal
PRIVATE_CLOCK = "Zq-sweep-private-clock"  # the other player's own, kept from this one
MARKERS = (
    HIDDEN_CLOCK, CABAL, CABAL_NOTES, CABAL_GOAL, SECRET_NOTES, GM_NOTE, SECRET_ROLL,
    SESSION_NOTES, PRIVATE_CLOCK,
)  # fmt: skip
# Every marker shares this, so one search finds any of them (and names which).
LEAK = re.compile(rb"Zq-sweep-[a-z-]+")
# A "known, progress hidden" clock of ten segments, ticked to seven: its name is shown,
# its count in any of the ways a page or the feed tells one never is.
KNOWN_CLOCK = "Known but veiled"
# The action roll's complication ticks it on to 8, told in the roll's steps as "7 → 8".
PROGRESS = re.compile(rb'\b[78] ?(?:/|of) ?10\b|"filled": ?[78]\b|\b7 \xe2\x86\x92 8\b')

# POST URLs (and steps) that cannot touch a hidden thing, with the reason.
NOT_HIDDEN = {
    "login": "signs in; no table",
    "logout": "signs out; its effect on sockets is tested in test_sockets",
    "signup": "makes an account; no table",
    "table_list": "makes a new table: nothing in it is hidden yet",
    "join": "joins by invite; the table page it leads to is scanned",
    "join_signup": "makes an account on an invite; joining is the join step's",
    "invite_regenerate": "the invite link is the GM's alone",
    "invite_revoke": "the invite link is the GM's alone",
    "member_remove": "removes a player; sockets closed (test_consumers)",
    "character_new": "the creation wizard; a new sheet holds no GM note yet",
    "character_edit": "a player's own sheet fields",
    "custom_playbook_new": "playbooks are shared content, never hidden",
    "crew_create": "a new crew; factions are separate",
    "crew_sheet": "the crew's own name and lair, shown to all",
    "crew_settings": "who may keep the books",
    "crew_develop": "the crew's books only",
    "crew_share_coin": "coin from the crew's books to a PC, both seen by all",
    "crew_advance": "the crew's books only",
    "crew_ability": "the crew's books only",
    "crew_ability_drop": "the crew's books only",
    "crew_upgrade": "the crew's books only",
    "crew_claim_add": "claims are never hidden",
    "crew_claim": "claims are never hidden",
    "crew_claim_remove": "claims are never hidden",
    "crew_cohort_add": "cohorts are never hidden",
    "crew_cohort_harm": "cohorts are never hidden",
    "crew_cohort_dismiss": "cohorts are never hidden",
    "screen_link": "makes the link whose page is scanned here",
    "table_settings": "the table's name; GM only",
    "table_language": "the language of what the table shares; GM only",
    "language": "a person's own language; no table",
    "discord_settings": "the GM's webhooks; the posts go through the audience rule (test_audience)",
    "foundry_import": "a character imported from a file; it holds no GM note or hidden thing",
    "table_restore": "makes a new table from a file; no table there is touched (tests/backup)",
    "character_hand_over": "gives a restored table's waiting character to a player; the sheet "
    "shows them what it shows any owner",
    "seat_hand_over": "gives a restored table's waiting seat to a player (GM only): the rows "
    "that named that seat name them, drawn by the same audience rules (tests/backup/test_seats)",
    "score_load": "a player's own load",
    "flashback_pay": "a player pays their own flashback",
    "activity_overindulge": "a player's own vice",
    "activity_vice_shift": "a player's own vice: Functioning Vice shifts its die",
    "activity_trouble": "rolls an overindulgence's extra entanglement: it names no faction "
    "(resolving it is entanglement_resolve, played here)",
    "xp_character": "a player's own xp",
    "flow_step:ask-trade": "asks for a trade: no clock or faction involved",
    "flow_step:accept-trade": "answers the trade",
    "flow_step:refuse-trade": "answers the trade",
    "flow_step:join": "joins a group action",
    "flow_step:group-bonus": "a participant's own bonus dice",
    "flow_step:group-assist": "assists in a group action",
    "flow_step:leave": "a participant leaves a group action before rolling: names only them",
    "flow_step:cohort": "a cohort rolls its quality; cohorts are never hidden",
    "flow_step:accept-bargain": "the roller's own choice",
    "flow_step:rooks-gambit": "the roller's own ability: the action rolled and their stress",
    "flow_step:ability-stress": "the roller's own stress for Emberdeath or Ghost Veil",
    "flow_step:cancel": "cancels a roll before its dice; nothing was ticked",
    "flow_consequence_step:protect": "a teammate takes the consequence instead",
    "flow_consequence_step:guard": "a Mastermind's special armor for a teammate: names only them",
}
# GET pages that answer a POST like a GET (no method decorator): nothing changes.
READ_ONLY = {
    "home", "table_detail", "character_sheet", "crew_detail", "faction_list",
    "screen", "screen_shared", "phase_detail", "phase_panel", "table_export",
    "overlay_clocks", "overlay_roll", "overlay_party",
}  # fmt: skip


def post_keys() -> set[str]:
    """Every URL name that takes a POST, found by posting to it as a user of no table:
    a view that only answers GET refuses the method (405) before anything else, the
    others refuse the outsider. Steps and moves are keyed `name:step`."""
    from rolls.views import CONSEQUENCE_STEPS, ROLL_STEPS
    from tests.factories import UserFactory

    client, outsider = Client(), UserFactory()
    keys = set()
    for pattern, _ in _patterns():
        client.force_login(outsider)  # again: one of the URLs is the logout
        kwargs = {
            name: UNKNOWN_ID if converter.regex == "[0-9]+" else "x"
            for name, converter in pattern.pattern.converters.items()
        }
        if client.post(reverse(pattern.name, kwargs=kwargs)).status_code == 405:
            continue
        steps = {
            "flow_step": ROLL_STEPS,
            "flow_consequence_step": CONSEQUENCE_STEPS,
            "character_move": character_moves(),
        }.get(pattern.name)
        if steps is None:
            keys.add(pattern.name)
        else:
            keys.update(f"{pattern.name}:{step}" for step in steps)
    return keys


@dataclass
class Session:
    """The table, its people and the hidden things, and what the sweep has done."""

    table: object
    gm: Client
    player: Client
    ada: object
    bo: object
    item: object
    hidden_clock: object
    cabal: object
    open_faction: object
    play_session: object = None  # the journal's session, started before anything happens
    swept: set[str] = field(default_factory=set)
    answers: list[bytes] = field(default_factory=list)  # the player's own answers
    gm_answers: list[bytes] = field(default_factory=list)
    players_posts: list[dict] = field(default_factory=list)  # to the players' Discord channel
    # URLs that refused a GET by its method (405, before any view code runs): they answer
    # the same at every step, so they are asked once.
    post_only: set[str] = field(default_factory=set)

    def url(self, name: str, **kwargs) -> str:
        return reverse(name, kwargs={"table_id": self.table.pk, **kwargs})

    def post(self, client: Client, url: str, data=None, ok=(200, 204, 302)) -> bytes:
        match = resolve(url)
        # A URL naming its step in the path is swept once per step; one whose step is
        # fixed by the URLconf is swept as its URL name.
        step = match.kwargs["step"] if "<slug:step>" in match.route else None
        self.swept.add(f"{match.url_name}:{step}" if step else match.url_name)
        response = client.post(url, data or {}, headers={"HX-Request": "true"})
        errors = re.findall(r"(?:error|alert)[^>]*>([^<]+)", response.content.decode())
        assert response.status_code in ok, (url, response.status_code, errors)
        if client is self.player:
            self.answers.append(response.content)
        elif client is self.gm:
            self.gm_answers.append(response.content)
        return response.content

    def gm_post(self, url: str, data=None, ok=(200, 204, 302)) -> bytes:
        return self.post(self.gm, url, data, ok)


PLAYERS_HOOK = "https://discord.com/api/webhooks/1/players"


def set_the_table() -> Session:
    from characters.models import GmNote
    from chronicle.models import DiscordHook
    from crews import actions as crew_actions
    from tests.factories import (
        CharacterFactory,
        CharacterItemFactory,
        ClockFactory,
        MembershipFactory,
        TableFactory,
    )

    table = TableFactory()
    player = MembershipFactory(table=table).user
    other = MembershipFactory(table=table).user
    ada = CharacterFactory(table=table, owner=player, name="Ada", prowl=2, tinker=1, coin=4)
    bo = CharacterFactory(table=table, owner=other, name="Bo", prowl=1)
    GmNote.objects.create(character=ada, text=GM_NOTE)
    crew_actions.create_crew(table=table, crew_type="shadows", name="Crew")
    cabal = crew_actions.create_faction(
        table=table, name=CABAL, tier=2, hold="weak", status=0, notes=CABAL_NOTES, hidden=True
    )
    open_faction = crew_actions.create_faction(
        table=table, name="Open Gang", tier=1, hold="weak", status=0, notes=SECRET_NOTES,
        notes_hidden=True,
    )  # fmt: skip
    DiscordHook.objects.create(
        table=table, players_url=PLAYERS_HOOK, gm_url="https://discord.com/api/webhooks/2/gm"
    )
    clients = []
    for user in (table.gm, player):
        client = Client()
        client.force_login(user)
        clients.append(client)
    return Session(
        table=table,
        gm=clients[0],
        player=clients[1],
        ada=ada,
        bo=bo,
        item=CharacterItemFactory(character=ada, load=1),
        hidden_clock=ClockFactory(
            table=table, name=HIDDEN_CLOCK, segments=12, visibility="gm", kind="project"
        ),
        cabal=cabal,
        open_faction=open_faction,
    )


# --- The session, in the order a table plays it ------------------------------------------


def clocks_and_factions(s: Session) -> None:
    hidden = s.hidden_clock.pk
    from sessions.models import Clock

    # The other player's clock, private to them and the GM, made and ticked by them.
    other = Client()
    other.force_login(s.bo.owner)
    s.post(
        other, s.url("clock_create"),
        {"new-clock-name": PRIVATE_CLOCK, "new-clock-segments": 6, "new-clock-kind": "project",
         "new-clock-visibility": "owner"},
    )  # fmt: skip
    private = Clock.objects.get(name=PRIVATE_CLOCK).pk
    s.post(other, s.url("clock_tick", clock_id=private), {"ticks": "1"})
    s.post(s.player, s.url("clock_tick", clock_id=private), {"ticks": "1"}, ok=(404,))
    s.gm_post(
        s.url("clock_create"),
        {"new-clock-name": KNOWN_CLOCK, "new-clock-segments": 10, "new-clock-kind": "danger",
         "new-clock-visibility": "known"},
    )  # fmt: skip
    known = Clock.objects.get(name=KNOWN_CLOCK).pk
    for _ in range(7):
        s.gm_post(s.url("clock_tick", clock_id=known), {"ticks": "1"})
    s.post(s.player, s.url("clock_tick", clock_id=known), {"ticks": "1"}, ok=(403,))

    s.gm_post(
        s.url("clock_create"),
        {"new-clock-name": HIDDEN_CLOCK + "-two", "new-clock-segments": 4,
         "new-clock-kind": "racing", "new-clock-visibility": "gm"},
    )  # fmt: skip
    two = Clock.objects.get(name=HIDDEN_CLOCK + "-two").pk
    # Visible clocks linked to hidden ones, which players may tick: their faces and the
    # refusals name the hidden clocks only as hidden.
    for name, kind, link in (("Alarm", "linked", "unlocks"), ("Escape", "racing", "rival"),
                             ("Trap", "danger", None)):  # fmt: skip
        fields = {"name": name, "segments": 4, "kind": kind, "visibility": "everyone",
                  "players_tick": "on", **({link: two} if link else {})}  # fmt: skip
        s.gm_post(s.url("clock_create"), {f"new-clock-{k}": v for k, v in fields.items()})
    trap = Clock.objects.get(table=s.table, name="Trap").pk
    s.gm_post(s.url("clock_tick", clock_id=hidden), {"ticks": "1"})
    prefix = f"clock-{hidden}"
    s.gm_post(
        s.url("clock_update", clock_id=hidden),
        {f"{prefix}-name": HIDDEN_CLOCK, f"{prefix}-segments": 12,
         f"{prefix}-kind": "project", f"{prefix}-visibility": "gm", f"{prefix}-unlocks": trap},
    )  # fmt: skip
    s.post(s.player, s.url("clock_tick", clock_id=trap), {"ticks": "1"}, ok=(422,))
    alarm = Clock.objects.get(table=s.table, name="Alarm").pk
    s.post(s.player, s.url("clock_tick", clock_id=alarm), {"ticks": "1"})
    goal = f"goal-{s.cabal.pk}"
    s.gm_post(
        s.url("faction_clock", faction_id=s.cabal.pk),
        {f"{goal}-name": CABAL_GOAL, f"{goal}-segments": 6},
    )
    prefix = f"faction-{s.cabal.pk}"
    s.gm_post(
        s.url("faction_update", faction_id=s.cabal.pk),
        {f"{prefix}-name": CABAL, f"{prefix}-tier": 2, f"{prefix}-hold": "weak",
         f"{prefix}-status": -1, f"{prefix}-notes": CABAL_NOTES + " more",
         f"{prefix}-hidden": "on"},
    )  # fmt: skip
    s.gm_post(s.url("faction_status", faction_id=s.cabal.pk), {"status": "-2"})
    s.gm_post(s.url("faction_status", faction_id=s.open_faction.pk), {"status": "1"})
    s.gm_post(
        s.url("faction_list"),
        {"name": CABAL + "-two", "tier": 1, "hold": "weak", "status": 0,
         "notes": CABAL_NOTES, "hidden": "on"},
    )  # fmt: skip
    from crews.models import Faction

    s.gm_post(s.url("faction_delete", faction_id=Faction.objects.get(name=CABAL + "-two").pk))


def crew_books(s: Session) -> None:
    # The crew's books carry the war with a faction: a hidden one must leave no trace.
    for name in ("crew_rep", "crew_heat", "crew_coin", "crew_xp"):
        s.gm_post(s.url(name), {"amount": "1"})
    s.gm_post(s.url("crew_books"), {"tier": 0, "hold": "strong", "wanted": 0})
    s.gm_post(
        s.url("crew_incarcerate"),
        {"prisoner": "Ada", "faction": s.cabal.pk, "prison_claim": "hardcase"},
    )


# What the sheet's moves read, one value for each field; a move reads only its own.
SHEET_FIELDS = {
    "text": GM_NOTE + " updated", "stress": 2, "condition": "cold", "level": 1,
    "description": "Cut", "index": 0, "ticks": 1, "box": "armor", "action": "prowl",
    "rating": 2, "track": "prowess", "amount": 1, "attribute": "prowess", "coin": 1,
    "stance": "friend", "notes": "Ada's notes", "state": "active", "position": "risky",
    "effect": "standard", "reason": "Marked by hand",
}  # fmt: skip
SHEET_OVERRIDES = {"load": {"level": "normal"}}


def sheets(s: Session) -> None:
    """Every sheet move, by the GM on the player's character (the GM note is on it)."""
    for move in character_moves():
        data = {**SHEET_FIELDS, **SHEET_OVERRIDES.get(move, {}), "item": s.item.pk}
        s.gm_post(s.url("character_move", character_id=s.ada.pk, step=move), data,
                  ok=(200, 204, 302, 422))  # fmt: skip


def action_roll(s: Session) -> None:
    """A public action roll whose target clock and complication are the hidden clock,
    with every step a roll can take; then a secret fortune roll, and undo."""
    from rolls.models import ActionRoll, Consequence
    from sessions.models import Clock

    s.post(s.player, s.url("flow_start"), {"start-goal": "Over the wall", "start-action": "prowl"})
    roll = ActionRoll.objects.latest("pk")

    def step(client, name, data=None, ok=(200,)):
        return s.post(client, s.url("flow_step", roll_id=roll.pk, step=name), data, ok)

    step(s.gm, "as-proposed")
    step(s.gm, "terms", {"position": "risky", "effect": "2"})
    step(s.player, "ability", {"bonus": "dice", "reason": "Ghost"})
    step(s.player, "push", {"push_effect": "1"})
    other = Client()
    other.force_login(s.bo.owner)
    step(other, "assist")
    step(other, "offer-bargain", {"bargain": "Your old friend sees you"})
    step(s.player, "roll")
    step(s.gm, "tick", {"clock": s.hidden_clock.pk})
    step(s.gm, "consequence", {"kind": "complication", "character": s.ada.pk,
                               "clock": s.hidden_clock.pk, "ticks": 1})  # fmt: skip
    known = Clock.objects.get(name=KNOWN_CLOCK).pk
    step(s.gm, "consequence", {"kind": "complication", "character": s.ada.pk,
                               "clock": known, "ticks": 1})  # fmt: skip
    step(s.gm, "consequence", {"kind": "harm", "character": s.ada.pk, "level": 1,
                               "description": "Bruised", "attribute": "prowess"})  # fmt: skip
    harm = Consequence.objects.get(roll=roll, kind="harm")
    for client, name in ((s.player, "resist"), (s.gm, "reduced")):
        url = s.url("flow_consequence_step", roll_id=roll.pk, consequence_id=harm.pk, step=name)
        s.post(client, url)
    for client, name in ((s.player, "armor"), (s.gm, "avoided")):
        # Once resisted, a consequence takes neither: swept by name, refused by the rules.
        url = s.url("flow_consequence_step", roll_id=roll.pk, consequence_id=harm.pk, step=name)
        s.post(client, url, ok=(422,))
    step(s.gm, "finish")
    s.gm_post(s.url("flow_undo"), {"roll": roll.pk})
    s.gm_post(
        s.url("flow_fortune"),
        {"fortune-goal": SECRET_ROLL, "fortune-trait": 2, "fortune-advantages": 0,
         "fortune-disadvantages": 0, "fortune-secret": "on"},
    )  # fmt: skip
    s.gm_post(s.url("roll_create"),
              {"kind": "fortune", "pool": 2, "note": SECRET_ROLL, "secret": "on"})  # fmt: skip


def score(s: Session) -> None:
    from play.models import Phase
    from play.phases import choices_for, table_crew

    s.gm_post(s.url("score_start"),
              {"plan": "stealth", "detail": "The roof", "faction": s.cabal.pk})  # fmt: skip
    s.gm_post(s.url("score_engagement"), {"plan": "advantage"})
    s.gm_post(s.url("score_flashback"), {"character": s.ada.pk, "stress": 1, "note": "Bribe"})
    s.gm_post(s.url("score_end"))
    s.gm_post(s.url("phase_payoff"), {"size": "standard"})
    s.gm_post(s.url("phase_heat"), {"exposure": "contained"})
    s.gm_post(s.url("entanglement_roll"))
    score = Phase.objects.get(table=s.table).score
    crew = table_crew(s.table.pk)
    name = score.entanglements[0]
    for choice in choices_for(crew, name, s.cabal):
        s.gm_post(s.url("entanglement_resolve"),
                  {"choice": f"{name}:{choice.key}", "faction": s.cabal.pk,
                   "prisoner": "Ada", "prison_claim": "hardcase"}, ok=(200, 422))  # fmt: skip
        if Phase.objects.get(table=s.table).step == "activities":
            break
    assert Phase.objects.get(table=s.table).step == "activities"


def downtime(s: Session) -> None:
    from play.models import DowntimeActivity
    from play.phases import table_crew

    ada = s.url("downtime_activity", character_id=s.ada.pk)
    # The GM may put a player's project on a clock the players do not see.
    s.gm_post(ada, {"kind": "project", "action": "prowl", "clock": s.hidden_clock.pk})
    s.gm_post(ada, {"kind": "recover", "healer": "npc", "quality": 2, "pay_with": "coin"})
    activity = DowntimeActivity.objects.filter(kind="project").latest("pk")
    s.gm_post(s.url("activity_raise", activity_id=activity.pk), {"coin": 1}, ok=(200, 422))
    goal = s.cabal.goal_links.get().clock
    s.gm_post(s.url("downtime_faction_roll"), {"clock": goal.pk})
    # Coin past what the lair keeps is shared out before downtime ends (001 §Coin).
    excess = table_crew(s.table.pk).coin_excess
    if excess:
        s.gm_post(s.url("crew_share_coin"), {"character": s.ada.pk, "amount": excess})
    s.gm_post(s.url("downtime_end"))
    s.gm_post(s.url("session_end"), ok=(200, 422))  # the xp review starts from free play
    s.gm_post(s.url("xp_crew"), {"crew_type": 1}, ok=(200, 422))
    s.gm_post(s.url("clock_delete", clock_id=s.hidden_clock.pk))


def journal_opens(s: Session) -> None:
    """Everything after this is in the session: the player's journal and exports, scanned
    after every part, tell it all as players saw it."""
    from chronicle.models import PlaySession

    s.gm_post(s.url("journal_start"), {"title": "The sweep"})
    s.play_session = PlaySession.objects.get(table=s.table)
    # The GM's test post goes to the players' channel, scanned with everything else.
    s.gm_post(s.url("discord_test"))


def journal_closes(s: Session) -> None:
    session = {"session_id": s.play_session.pk}
    s.post(s.player, s.url("journal_learned", **session), {"text": "What we learned"})
    s.gm_post(s.url("journal_edit", **session), {"title": "The sweep", "gm_notes": SESSION_NOTES})
    s.gm_post(s.url("journal_end", **session))
    s.gm_answers.append(s.gm.get(s.url("journal_export", **session)).content)


PLAY: list[Callable[[Session], None]] = [
    journal_opens,
    clocks_and_factions,
    crew_books,
    sheets,
    action_roll,
    score,
    downtime,
    journal_closes,
]


# --- The scans ------------------------------------------------------------------------------


def assert_clean(what: str, raw: bytes) -> None:
    match = LEAK.search(raw) or PROGRESS.search(raw)
    assert match is None, f"{what} holds {match.group(0).decode()}"


def players_views(s: Session) -> dict[str, bytes]:
    """Everything a player and the screen are shown now, by where it is shown."""
    from crews.models import Screen
    from tests.security.urls import table_urls

    ids = {"table_id": s.table.pk, "clock_id": s.hidden_clock.pk, "user_id": s.gm_user_id}
    if s.play_session is not None:
        ids["session_id"] = s.play_session.pk
    seen = {}
    # The table's own URLs come out the same for both characters: each is asked once.
    urls = {
        url.url
        for character in (s.ada, s.bo)
        for url in table_urls(**ids, character_id=character.pk)
    }
    for url in sorted(urls - s.post_only):
        for headers in ({}, {"HX-Request": "true"}):
            response = s.player.get(url, headers=headers)
            if response.status_code == 405:
                s.post_only.add(url)
            seen[f"{url} {headers}"] = response.content
            for part, opened in folds(s.player, response.content).items():
                seen[f"{part}, opened on {url}"] = opened.content
    screen = Screen.objects.filter(table=s.table, active=True).first()
    if screen is not None:
        # The TV, each overlay of a stream and the feed, as a logged-out browser or bot.
        names = ("screen_shared", "overlay_clocks", "overlay_roll", "overlay_party", "screen_feed")
        for name in names:
            seen[name] = Client().get(reverse(name, args=[screen.token])).content
    discord.wait_idle()
    seen["the players' Discord channel"] = json.dumps(s.players_posts).encode()
    return seen


# Two drawings of the same page differ in their CSRF tokens, and a roll made a moment ago
# (`just_rolled`) tumbles its dice and marks the screen's log fresh for a while.
VOLATILE = (
    CSRF_TOKEN,
    re.compile(rb"(class=\"dice) tumble"),
    re.compile(rb"(class=\"roll-log screen-rolls) fresh"),
)


def _steady(views: dict[str, bytes]) -> dict[str, bytes]:
    steady = {}
    for where, raw in views.items():
        for volatile in VOLATILE:
            raw = volatile.sub(rb"\1", raw)
        steady[where] = raw
    return steady


def veil(s: Session, by: int) -> None:
    """What players must not tell apart: the known clock `by` ticks on (or back), and
    the visible faction's hidden notes taken away (or written again)."""
    from crews.models import Faction
    from sessions.models import Clock

    known = Clock.objects.filter(table=s.table, name=KNOWN_CLOCK).first()
    if known is not None:
        s.gm_post(s.url("clock_tick", clock_id=known.pk), {"ticks": str(by)})
    faction = Faction.objects.get(pk=s.open_faction.pk)
    prefix = f"faction-{faction.pk}"
    s.gm_post(
        s.url("faction_update", faction_id=faction.pk),
        {f"{prefix}-name": faction.name, f"{prefix}-tier": faction.tier,
         f"{prefix}-hold": faction.hold, f"{prefix}-status": faction.status,
         f"{prefix}-notes": "" if by > 0 else SECRET_NOTES, f"{prefix}-notes_hidden": "on"},
    )  # fmt: skip


async def players_cannot_tell(s: Session, sockets: dict, when: str, views: dict) -> bytes:
    """The veiled changes, there and back: nothing players or the screen receive differs
    from `views` (what they were shown before) and their sockets stay silent. Returns the
    GM's frames."""
    before = _steady(views)
    # Frames of the part still on their way (through Redis, on PostgreSQL) are the part's,
    # scanned as those were, not a veiled change's: read them before the veil is drawn.
    late = await asyncio.gather(*(drain(socket, quiet=LATE) for socket in sockets.values()))
    gm_frames = b""
    for who, frames in zip(sockets, late, strict=True):
        if who == "gm":
            gm_frames += frames
        else:
            assert_clean(f"the {who}'s late frames after {when}", frames)
    for by in (1, -1):
        await database_sync_to_async(veil)(s, by)
        for who in ("player", "tv", "gm screen"):
            heard = await drain(sockets[who])
            assert heard == b"", f"the {who}'s socket heard a veiled change after {when}"
        gm_frames += await drain(sockets["gm"])
        after = _steady(await database_sync_to_async(players_views)(s))
        differ = [where for where in after if after[where] != before.get(where)]
        assert not differ, f"after {when}, a veiled change shows in {differ}"
    return gm_frames


# How long every socket stays quiet before a veil is drawn: a part's last push is through.
LATE = 0.3
# How long a socket stays quiet once every socket's presence is written, before the lists
# they tell are taken as all arrived: far beyond a push's way through a busy Redis.
SETTLED = 1.0


async def until_seated(table_id: int, sockets: int) -> None:
    """Until every socket opened at the table has its presence row."""
    from sessions.models import Presence

    seated = Presence.objects.filter(table_id=table_id).count
    while await database_sync_to_async(seated)() < sockets:
        await asyncio.sleep(0.05)


async def drain(communicator, quiet: float = 0.1) -> bytes:
    """Every frame that arrives until the socket has been quiet for `quiet` seconds."""
    frames = b""
    while not await communicator.receive_nothing(timeout=quiet, interval=0.01):
        frames += (await communicator.receive_from()).encode()
    return frames


@pytest.mark.long
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_hidden_name_or_note_reaches_a_player_or_the_screen(monkeypatch):
    from sessions.actions import SYSTEM_RNG

    # Every die a 4: each roll a partial success, so every step of the roll has its turn.
    monkeypatch.setattr(SYSTEM_RNG, "randint", lambda low, high: 4)
    s = await database_sync_to_async(set_the_table)()
    s.gm_user_id = s.table.gm_id

    def delivered(post) -> bool:
        if post.url == PLAYERS_HOOK:
            s.players_posts.append(post.payload)
        return True

    monkeypatch.setattr(discord, "deliver", delivered)
    await database_sync_to_async(s.gm_post)(s.url("screen_link"))
    sockets = {}
    for who, client in (("gm", s.gm), ("player", s.player)):
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        sockets[who] = Socket(
            application,
            f"/ws/tables/{s.table.pk}/",
            headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", cookie)],
        )
        assert (await sockets[who].connect())[0]
    # The shared screen's sockets: the TV's on the token link, and the GM's own screen.
    from crews.models import Screen

    screen = await database_sync_to_async(Screen.objects.get)(table=s.table)
    gm_cookie = f"sessionid={s.gm.cookies['sessionid'].value}".encode()
    for who, path, headers in (
        ("tv", f"/ws/screen/{screen.token}/", []),
        ("gm screen", f"/ws/tables/{s.table.pk}/screen/", [(b"cookie", gm_cookie)]),
    ):
        sockets[who] = Socket(
            application, path, headers=[(b"origin", b"http://127.0.0.1"), *headers]
        )
        assert (await sockets[who].connect())[0]
    screens = ("tv", "gm screen")
    # Each socket, once its row is written, tells the table who is here; the lists come a
    # moment later. Read to the last (and scanned) before any veil is drawn, or one could
    # reach a socket that must stay silent through a veiled change.
    await until_seated(s.table.pk, len(sockets))
    greetings = {who: await drain(socket, quiet=SETTLED) for who, socket in sockets.items()}
    for who in ("player", *screens):
        assert_clean(f"the {who}'s greeting", greetings[who])
    gm_frames = greetings["gm"]
    for part in PLAY:
        await database_sync_to_async(part)(s)
        gm_frames += await drain(sockets["gm"])
        assert_clean(f"a player's frames during {part.__name__}", await drain(sockets["player"]))
        for who in screens:
            assert_clean(f"the {who}'s frames during {part.__name__}", await drain(sockets[who]))
        views = await database_sync_to_async(players_views)(s)
        assert_clean(f"a player's pages after {part.__name__}", b"".join(views.values()))
        assert_clean(f"a player's own answers in {part.__name__}", b"".join(s.answers))
        gm_frames += await players_cannot_tell(s, sockets, part.__name__, views)
    # Frames still on their way (through Redis, in the PostgreSQL run) are scanned too.
    gm_frames += await drain(sockets["gm"], quiet=1)
    assert_clean("a player's last frames", await drain(sockets["player"], quiet=1))
    for who in screens:
        assert_clean(f"the {who}'s last frames", await drain(sockets[who], quiet=1))
    for communicator in sockets.values():
        await communicator.disconnect()
    # The scans looked where the secrets were: the GM's frames and pages carried them all.
    assert {m for m in MARKERS if m.encode() in gm_frames} >= {HIDDEN_CLOCK, CABAL, CABAL_GOAL}
    gm_seen = gm_frames + b"".join(s.gm_answers)
    assert {m for m in MARKERS if m.encode() not in gm_seen} == set()
    assert PROGRESS.search(gm_seen), "the GM saw the known clock's count"
    missing = await database_sync_to_async(post_keys)() - s.swept - set(NOT_HIDDEN) - READ_ONLY
    assert not missing, f"POST URLs the sweep did not play: {sorted(missing)}"
