"""The language sweep: a table plays a whole session (the secret sweep's, every step a
table takes), then every page and fragment of it is read as each audience reads it (the
GM's, a player's, the shared screen's, its overlays and feed, the journal), and every
frame their sockets were pushed meanwhile (and a socket's snapshot on connecting), in each
language the app offers. It fails on

- a number written for a machine in the reader's way of writing numbers: "240,0" in an
  SVG's geometry, a `style`, a `data-` attribute or JSON is no number to a browser;
- for a reader of another language than English, a text (a text node, or a name a
  screen reader or a tooltip gives: `title`, `aria-label`, `alt`, `placeholder`) or a word
  of the feed that is the English of an entry in the catalog: a word made outside it.

Each run is one table whose GM and player read different languages, so between the two
runs each audience reads each language."""

import json
import re
from dataclasses import dataclass, field
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from blades import content
from tests.helpers import folds, give_ability
from tests.security.test_sweep import PLAY, Session, set_the_table
from tests.security.urls import table_urls
from tests.sessions.test_stored_words import stored, stored_messages

# The played session's own words (names and lines the sweep types): never translated.
THEIRS = {"Crew", "Ada", "Bo", "Open Gang", "Alarm", "Escape", "Trap", "Known but veiled"}
THEIRS |= {"What we learned", "Over the wall", "Open", "Gang"}


def listed_values(schema: dict, defs: dict) -> set[str]:
    """The feed's fields whose values its schema lists (docs/screen.md: they stay
    English, the keys a program matches)."""
    names = set()
    for name, field_schema in schema.get("properties", {}).items():
        choices = [field_schema, *field_schema.get("oneOf", [])]
        choices = [defs.get(c.get("$ref", "").split("/")[-1], c) for c in choices]
        if any("enum" in choice for choice in choices):
            names.add(name)
        for inner in (field_schema, field_schema.get("items", {}), *choices):
            names |= listed_values(inner, defs) if isinstance(inner, dict) else set()
    return names


FEED_SCHEMA = json.loads((Path(settings.BASE_DIR) / "docs" / "feed.schema.json").read_text())
FEED_ENUMS = listed_values(FEED_SCHEMA, FEED_SCHEMA["$defs"])

# Where a number is read by a machine: SVG geometry, a style, data for a script.
GEOMETRY = {
    "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry", "width", "height",
    "viewbox", "d", "points", "transform", "offset", "stroke-width", "stroke-dasharray",
    "stroke-dashoffset", "opacity", "value", "min", "max", "step", "hx-vals",
}  # fmt: skip
HUMAN = {"title", "aria-label", "alt", "placeholder"}
# A decimal comma between digits ("240,0", "0,75"): a machine reads it as two numbers or
# none. A list of numbers ("0 0 240 60", "1,2" in a path) is written with spaces here.
LOCALIZED = re.compile(r"\d,\d")
NUMBER = re.compile(r"[-+]?[\d.,]*\d")


@dataclass
class Read:
    """What one reader of `language` was given: its texts for people (each with the
    language its element says it is in), its numbers for machines, and any page that
    says it is in another language than its reader's."""

    language: str
    texts: list[tuple[str, str, str]] = field(default_factory=list)  # (where, text, lang)
    machine: list[tuple[str, str]] = field(default_factory=list)
    wrong_page: list[str] = field(default_factory=list)


VOID = {"br", "img", "input", "meta", "link", "hr", "source", "col", "wbr", "area"}


class Page(HTMLParser):
    """A page or a fragment; a fragment lands in a page of its reader's language."""

    def __init__(self, where: str, read: Read, language: str = "") -> None:
        super().__init__(convert_charrefs=True)
        self.where, self.read, self.language = where, read, language or read.language
        self.open: list[tuple[str, str]] = []  # (tag, the language it is in)

    @property
    def lang(self) -> str:
        return self.open[-1][1] if self.open else self.language

    def handle_starttag(self, tag, attrs):
        lang = dict(attrs).get("lang") or self.lang
        self.script_type = dict(attrs).get("type") if tag == "script" else None
        if tag not in VOID:
            self.open.append((tag, lang))
        for name, value in attrs:
            if value is None:
                continue
            if name in HUMAN:
                self.read.texts.append((f"{self.where} <{tag} {name}>", value, lang))
            elif name in GEOMETRY or name == "style" or name.startswith("data-"):
                self.read.machine.append((f"{self.where} <{tag} {name}>", value))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop()

    def handle_endtag(self, tag):
        if any(open_tag == tag for open_tag, _ in self.open):
            while self.open.pop()[0] != tag:
                pass

    def handle_data(self, data):
        inside = self.open[-1][0] if self.open else ""
        if inside == "script":
            if self.script_type == "application/json":
                read_json(f"{self.where} <script>", json.loads(data), self.read)
        elif inside != "style" and data.strip():
            self.read.texts.append((f"{self.where} text", data, self.lang))


def read_response(where: str, response, read: Read, *, shared: str = "") -> None:
    """`shared`: the table's language, for what the whole table shares (the TV's pages
    and feed); a person's own page is in its reader's language, and says so."""
    kind = response.get("Content-Type", "")
    said = response.get("Content-Language")
    if said != (shared or read.language):
        read.wrong_page.append(f"{where}: Content-Language {said} for {read.language}")
    page = re.search(r'<html lang="([^"]*)"', response.content.decode(errors="replace"))
    if page and page.group(1) != said:
        read.wrong_page.append(f"{where}: <html lang={page.group(1)}>, Content-Language {said}")
    if kind.startswith("application/json"):
        read_json(where, json.loads(response.content), read, feed=bool(shared))
    elif kind.startswith("text/html"):
        # A fragment lands in a page of the language its response says.
        Page(where, read, said).feed(response.content.decode())


def read_json(where: str, data, read: Read, *, feed: bool = False) -> None:
    """A number in JSON is a number; a string that is one written the reader's way is
    not. The feed's strings are words too, the table's, read by a group's own page."""
    if isinstance(data, dict):
        for key, value in data.items():
            read_json(f"{where}.{key}", value, read, feed=feed)
    elif isinstance(data, list):
        for value in data:
            read_json(where, value, read, feed=feed)
    elif isinstance(data, str):
        if NUMBER.fullmatch(data.strip()):
            read.machine.append((f"{where} (JSON)", data))
        if feed and where.rsplit(".", 1)[-1] not in FEED_ENUMS:
            read.texts.append((f"{where} (feed)", data, read.language))


def localized_numbers(read: Read) -> list[str]:
    return [f"{where}: {value[:80]!r}" for where, value in read.machine if LOCALIZED.search(value)]


def content_names(english, shown, found: dict[str, str]) -> dict[str, str]:
    """Every name in the game's content (a playbook, an ability, a vice, a claim...) whose
    translation differs, mapped to it: translated in the content's own files, not the
    catalog."""
    if isinstance(english, dict):
        shown = shown if isinstance(shown, dict) else {}
        name, its = english.get("name"), shown.get("name")
        if isinstance(name, str) and isinstance(its, str) and its != name:
            found[name] = its
        for key, value in english.items():
            content_names(value, shown.get(key), found)
    elif isinstance(english, list):
        shown = shown if isinstance(shown, list) else []
        for index, value in enumerate(english):
            content_names(value, shown[index] if index < len(shown) else None, found)
    return found


def english_catalog(language: str) -> dict[str, str]:
    """Each English message of the catalog whose reading in `language` differs, mapped to
    it: a whole message, no %-params, the ones a page shows as a text by itself; and each
    name of the game's content (`content_names`)."""
    catalog = translation.trans_real.translation(language)._catalog
    english = {}
    for path in content.DATA_DIR.glob("*.json"):
        content_names(content.load(path.stem), content.localized(path.stem, language), english)
    english = {name: shown for name, shown in english.items() if name not in THEIRS}
    for key, value in catalog.items():
        if not isinstance(key, str) or "%" in key or key == "":
            continue
        message = key.split("\x04")[-1]  # "context\x04message"
        if message.strip() and value and value != message and message not in THEIRS:
            english[" ".join(message.split())] = value
    return english


def english_words(english: dict[str, str]) -> set[str]:
    """The catalog's one-word terms ("Great", "Wreck") no translation uses as a word of
    its own ("Normal" is Spanish too): found inside a longer text ("efecto Great")."""
    theirs = {word.lower() for text in english.values() for word in WORD.findall(text)}
    return {
        message
        for message in english
        if WORD.fullmatch(message) and len(message) > 3 and message[0].isupper()
        and message.lower() not in theirs
    }  # fmt: skip


WORD = re.compile(r"[^\W\d_]+")


def english_left(read: Read, language: str) -> list[str]:
    english = english_catalog(language)
    terms = english_words(english)
    found = []
    for where, text, lang in read.texts:
        if lang != language:
            continue
        text = " ".join(text.split())
        pieces = {text, *(p.strip() for p in re.split(r"[·:—–()/,;.!?]", text))}
        for piece in pieces & english.keys():
            found.append(f"{where}: {piece!r} (in the catalog as {english[piece]!r})")
        for word in set() if pieces & english.keys() else set(WORD.findall(text)) & terms - THEIRS:
            found.append(
                f"{where}: {word!r} in {text[:80]!r} (in the catalog as {english[word]!r})"
            )
    return sorted(set(found))


def play(table_language: str, gm_reads: str, player_reads: str, on_commit, pushed) -> Session:
    """`on_commit`: runs what a post leaves for after its commit (the pushes); `pushed`:
    where the pushes' frames land, (group, html), in place of the channel layer."""
    from sessions import actions

    s = set_the_table()
    # Abilities the app names on its pages: reminded in downtime (Alchemist) and while a
    # roll is set up (Infiltrator), and one granting special armor (Battleborn), so their
    # names and texts are read too (the database keeps them in English).
    for key in ("alchemist", "infiltrator", "battleborn"):
        give_ability(s.ada, key)
    actions.set_table_language(table=s.table, language=table_language)
    s.table.refresh_from_db()
    s.gm.defaults["HTTP_ACCEPT_LANGUAGE"] = gm_reads
    s.player.defaults["HTTP_ACCEPT_LANGUAGE"] = player_reads
    s.gm_post(s.url("screen_link"))
    sockets_open(s, gm_reads, player_reads)
    s.posted = []  # what each post answered: (client, url, answer)
    s.pushed = pushed
    post = s.post

    def keep(client, url, data=None, ok=(200, 204, 302)):
        with on_commit(execute=True):
            answer = post(client, url, data, ok)
        s.posted.append((client, url, answer))
        return answer

    s.post = keep
    return s


def sockets_open(s: Session, gm_reads: str, player_reads: str) -> None:
    """The GM's page, the player's and the shared screen are open, each in its reader's
    language (the screen in the table's): a push is drawn in each of them."""
    from sessions.models import Presence
    from tests.factories import PresenceFactory

    s.player_user = s.ada.owner
    PresenceFactory(table=s.table, user=s.table.gm, language=gm_reads)
    PresenceFactory(table=s.table, user=s.player_user, language=player_reads)
    Presence.objects.create(
        table=s.table, user=None, channel_name="screen", seen=timezone.now(),
        language=s.table.language,
    )  # fmt: skip


def socket_frames(s: Session, reads: dict, gm_reads: str, player_reads: str) -> None:
    """What the GM's and the player's sockets were pushed, each in its reader's language,
    then what each is sent on connecting now (its snapshot, who is here); and the
    screen's, which is only ever told to fetch its pages again (read with them)."""
    from sessions import live

    table, gm, player = s.table.pk, s.table.gm_id, s.player_user.pk
    sockets = {
        ("GM", gm_reads): {live.gm_group(table, gm_reads), live.member_group(table, gm, gm_reads)},
        ("player", player_reads): {
            live.players_group(table, player_reads),
            live.member_group(table, player, player_reads),
        },
    }
    for (who, language), groups in sockets.items():
        frames = [html for group, html in s.pushed if group in groups]
        assert frames, f"the {who}'s socket was pushed nothing"
        for number, html in enumerate(frames):
            Page(f"the {who}'s socket, frame {number}", reads[language]).feed(html)
        # As the consumer sends it: a player who owns a clock gets their own list.
        drawn = live.snapshot(table, who == "GM", language)
        owns = who == "player" and player in drawn.owners
        own = live.own_clocks(table, player, language) if owns else None
        Page(f"the {who}'s snapshot", reads[language]).feed(drawn.frame(own))
        here = live.presence(table, timezone.now() - timedelta(minutes=1))[language]
        Page(f"the {who}'s list of who is here", reads[language]).feed(here)
    with translation.override(s.table.language):
        signal = render_to_string("crews/screen.html#screen-signal")
    Page("the screen's socket", reads[s.table.language]).feed(signal)


def screen_urls(s: Session) -> list[str]:
    from crews.models import Screen

    token = Screen.objects.get(table=s.table, active=True).token
    names = ("screen_shared", "overlay_clocks", "overlay_roll", "overlay_party", "screen_feed")
    # An overlay drawn at a scale a stream asked for: the scale is a number for CSS.
    return [
        reverse(name, args=[token]) + ("?scale=0.75" if "overlay" in name else "") for name in names
    ]


def pages(s: Session, client: Client, read: Read) -> None:
    ids = {"table_id": s.table.pk, "clock_id": s.hidden_clock.pk, "user_id": s.table.gm_id}
    if s.play_session is not None:
        ids["session_id"] = s.play_session.pk
    # The table's own URLs come out the same for both characters: each is read once.
    urls = {
        url.url: url.name for c in (s.ada, s.bo) for url in table_urls(**ids, character_id=c.pk)
    }
    for url, name in sorted(urls.items()):
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(url, headers=headers)
            shared = s.table.language if name in SHARED else ""
            read_response(name, response, read, shared=shared)
            for part, opened in folds(client, response.content).items():
                read_response(f"{part}, opened on {name}", opened, read, shared=shared)
    for name in ("home", "table_list", "language"):
        read_response(name, client.get(reverse(name)), read)


def roll_in_progress(s: Session) -> None:
    """A roll left rolled and open at the end of the session: the screen, its overlays
    and the pages show its action, position, effect and result as it stands."""
    from rolls.models import ActionRoll

    s.post(s.player, s.url("flow_start"), {"start-goal": "Over the wall", "start-action": "wreck"})
    roll = ActionRoll.objects.latest("pk")
    for client, step, data in (
        (s.gm, "as-proposed", None),
        (s.gm, "terms", {"position": "desperate", "effect": "2"}),
        (s.player, "roll", None),
    ):
        s.post(client, s.url("flow_step", roll_id=roll.pk, step=step), data, ok=(200,))


# A member's pages that are the table's, in its language whoever reads them: the screen
# (as the TV's) and the journal's Markdown.
SHARED = {"screen", "journal_export", "journal_campaign"}


def held_messages() -> set[str]:
    """Every message and word of the rules the database holds in a stored line."""
    from sessions.fields import WordsField

    held = set()
    for model in apps.get_models():
        for name in [f.name for f in model._meta.fields if isinstance(f, WordsField)]:
            for value in model.objects.values_list(name, flat=True):
                held |= stored_messages(value)
    return held


RUNS = [
    # (the table's, the GM's, the player's language)
    pytest.param("es", "en", "es", id="spanish-table-english-gm"),
    pytest.param("en", "es", "en", id="english-table-spanish-gm"),
]


@pytest.mark.embedded
@pytest.mark.django_db
@pytest.mark.parametrize(("table_language", "gm_reads", "player_reads"), RUNS)
def test_every_word_in_its_readers_language_every_number_a_number(
    monkeypatch, django_capture_on_commit_callbacks, table_language, gm_reads, player_reads
):
    from chronicle import discord
    from sessions import live
    from sessions.actions import SYSTEM_RNG

    monkeypatch.setattr(SYSTEM_RNG, "randint", lambda low, high: 4)
    pushed = []
    monkeypatch.setattr(live, "send_now", lambda *fragments: pushed.extend(fragments))
    # The Discord relay's worker reads the database on a connection of its own, which
    # cannot see this test's rows; the posts are not the sweep's to read.
    monkeypatch.setattr(discord, "enqueue", lambda job: None)
    s = play(table_language, gm_reads, player_reads, django_capture_on_commit_callbacks, pushed)
    reads = {language: Read(language) for language in (table_language, gm_reads, player_reads)}
    screen = Client()
    screen.defaults["HTTP_ACCEPT_LANGUAGE"] = "en" if table_language != "en" else "es"
    for part in [*PLAY, roll_in_progress]:
        part(s)
        # The screen and its overlays between the steps: the roll in progress is on them.
        for url in screen_urls(s):
            read_response(
                f"{url} after {part.__name__}", screen.get(url), reads[table_language],
                shared=table_language,
            )  # fmt: skip
    for client, url, answer in s.posted:
        for who, reader, language in (("GM", s.gm, gm_reads), ("player", s.player, player_reads)):
            if client is reader:
                Page(f"the {who}'s answer to {url}", reads[language]).feed(answer.decode())
    # The journal is the reader's page around the table's record, which says it is in
    # the table's language (`lang`).
    pages(s, s.player, reads[player_reads])
    pages(s, s.gm, reads[gm_reads])
    socket_frames(s, reads, gm_reads, player_reads)
    found = [
        f"a stored message not on tests/sessions/stored_words.json (add it): {message!r}"
        for message in sorted(held_messages() - stored())
    ]
    for language, read in reads.items():
        assert len(read.texts) > 1000 and read.machine, f"the sweep read too little in {language}"
        found += [f"a page's language: {wrong}" for wrong in read.wrong_page]
        found += [f"a number for machines, in {language}: {n}" for n in localized_numbers(read)]
        if language != "en":
            found += [
                f"English to a reader of {language}: {w}" for w in english_left(read, language)
            ]
    assert found == [], "\n".join(found)


def test_the_scan_finds_what_it_is_for():
    read = Read("es")
    Page("p", read).feed(
        '<svg width="240,0"><rect x="1.5" y="2"/></svg><div data-scale="0,75"></div>'
        '<p title="Devil\'s bargain">Great</p><p>Ada, 2,5 km</p>'
        '<script type="application/json">{"a": "1,5"}</script><script>f([1,2])</script>'
    )
    assert len(localized_numbers(read)) == 3
    assert [text for _, text, _ in read.texts] == ["Devil's bargain", "Great", "Ada, 2,5 km"]
    with translation.override("es"):
        left = english_left(read, "es")
    assert len(left) == 2, left
