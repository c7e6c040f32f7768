"""Random values into every form of the table page and the sheet: never a 500, and a
refused post changes nothing. The default (8 examples a form, over 60-odd forms) keeps
`make test` quick; FUZZ_EXAMPLES=200 digs deeper.

The forms are read from the pages the GM sees (who sees every form), so a form added
later is fuzzed without touching this test. The sweep below goes further: every URL
pattern of the resolver (so a new view is covered the day it is added), as the GM, a
player and logged out, with hostile values in every field the view reads (2 examples a
route and person by default, and a post with nothing to learn the fields).
"""

import os
import re
from html.parser import HTMLParser

import pytest
from django.forms.models import model_to_dict
from django.http import QueryDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from characters.models import Character, CharacterAbility, CharacterItem, Contact, GmNote
from sessions.models import Clock, Membership, Roll, Table
from tests.security.conftest import build_scene

# Values a form might expect, next to ones it should refuse.
VALUE = st.one_of(
    st.text(max_size=120),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.sampled_from(
        ["", "0", "1", "2", "-1", "4", "9", "12", "on", "true", "gm", "everyone", "danger"]
        + ["action", "risky", "desperate", "great", "skirmish", "prowess", "light", "heavy"]
        + ["dead", "retired", "active", "armor", "special", "friend", "rival", "1e9", "NaN"]
    ),
)


class Forms(HTMLParser):
    """Collects (url, field names) of every form and every hx-post button on a page."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, set[str]]] = []
        self.open: tuple[str, set[str]] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and (attrs.get("method") == "post" or "hx-post" in attrs):
            self.open = (attrs.get("hx-post") or attrs.get("action") or "", set())
            self.found.append(self.open)
        elif self.open and tag in {"input", "select", "textarea", "button"}:
            self.open[1].add(attrs.get("name"))
        if tag == "button" and "hx-post" in attrs:
            self.found.append((attrs["hx-post"], set()))

    def handle_endtag(self, tag):
        if tag == "form":
            self.open = None


def forms_on(html: str) -> list[tuple[str, list[str]]]:
    parser = Forms()
    parser.feed(html)
    # One form per view: the second clock's forms are the first one's with other ids.
    unique = {}
    for url, named in parser.found:
        names = named - {None, "csrfmiddlewaretoken"}
        shape = re.sub(r"\d+", "N", url)
        if url.startswith("/tables/") and shape not in unique:
            unique[shape] = (url, sorted(names))
    unique = dict(unique.values())
    # Deleting and removing go last, so the other forms still have something to act on.
    return sorted(unique.items(), key=lambda item: "delete" in item[0] or "remove" in item[0])


def state() -> list:
    return [
        [model_to_dict(t) for t in Table.objects.order_by("pk")],
        list(Membership.objects.order_by("pk").values()),
        list(Clock.objects.order_by("pk").values()),
        list(Roll.objects.order_by("pk").values_list("pk", flat=True)),
        list(Character.objects.order_by("pk").values()),
        list(CharacterItem.objects.order_by("pk").values()),
        list(CharacterAbility.objects.order_by("pk").values()),
        list(Contact.objects.order_by("pk").values()),
        list(GmNote.objects.order_by("pk").values()),
    ]


def fuzz(client, url: str, names: list[str]) -> None:
    @settings(
        max_examples=int(os.environ.get("FUZZ_EXAMPLES", "8")),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(values=st.fixed_dictionaries({name: VALUE for name in names}), htmx=st.booleans())
    def post(values, htmx):
        before = state()
        headers = {"HX-Request": "true"} if htmx else {}
        response = client.post(url, values, headers=headers)
        assert response.status_code < 500, (url, values)
        if response.status_code >= 400:
            assert state() == before, (url, values, response.status_code)

    post()


def test_random_posts_to_every_form_never_fail_and_refusals_change_nothing(client, scene):
    client.force_login(scene.gm)
    table = scene.table.pk
    pages = [
        client.get(f"/tables/{table}/characters/{scene.character.pk}/").content.decode(),
        client.get(f"/tables/{table}/").content.decode(),
    ]
    forms = [form for page in pages for form in forms_on(page)]
    assert len(forms) >= 15
    for url, names in forms:
        fuzz(client, url, names)


# --- Every URL of the resolver, as the GM, a player and a stranger ----------------------

# Values for any field a view reads: plausible ones next to hostile ones.
HOSTILE = st.one_of(
    VALUE,
    st.sampled_from(
        ["99999999999999999999999", "-99999999999999999999", "1.5", "-0", "0x10", "1e400"]
        + ["abc", "\x00", "1\x00", "x" * 10_000, " 1 ", "<script>", "inf", "∞", "٣"]
    ),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)
ROUTE_ARG = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")
# Destructive routes go last, so the others still find something to act on.
LAST = ("delete", "remove", "dismiss", "revoke", "logout", "end")


def table_state() -> list:
    """Every row of every model but Django's own login sessions, for before/after."""
    from django.apps import apps

    skip = {"sessions", "contenttypes", "auth", "admin"}
    models = [m for m in apps.get_models() if m._meta.app_label not in skip]
    return [list(m._default_manager.order_by("pk").values()) for m in models]


class Reads:
    """Records every key a view asks a QueryDict for: the fields the view reads."""

    def __init__(self):
        self.keys: set[str] = set()

    def __enter__(self):
        from django.utils.datastructures import MultiValueDict

        self.patches = []
        for name in ("get", "getlist", "__getitem__", "__contains__"):
            original = getattr(MultiValueDict, name)

            def spy(this, key, *args, _original=original, **kwargs):
                if isinstance(this, QueryDict) and isinstance(key, str):
                    self.keys.add(key)
                return _original(this, key, *args, **kwargs)

            setattr(MultiValueDict, name, spy)
            self.patches.append((name, original))
        return self

    def __exit__(self, *exc):
        from django.utils.datastructures import MultiValueDict

        for name, original in self.patches:
            setattr(MultiValueDict, name, original)


def route_values(scene, extra, route: str) -> dict[str, list]:
    """Candidates for each URL argument of `route`: the scene's own objects, another
    table's, and ids nobody has (too big for any column among them); the steps of the
    sheet or of a roll, which both name their step `step`."""
    from rolls.views import CONSEQUENCE_STEPS, ROLL_STEPS
    from tests.security.urls import character_moves

    ids = {
        "table_id": [scene.table.pk, extra.foreign_table.pk],
        "character_id": [scene.character.pk, scene.other_character.pk, extra.foreign_character],
        "clock_id": [scene.clock.pk, scene.hidden_clock.pk, extra.foreign_clock],
        "user_id": [scene.other_player.pk, scene.gm.pk],
        "faction_id": [extra.faction, extra.hidden_faction],
        "roll_id": [extra.roll],
        "consequence_id": [1],
        "claim_id": [extra.claim],
        "cohort_id": [extra.cohort],
        "flashback_id": [1],
        "activity_id": [1],
    }
    slugs = {
        "step": (
            character_moves() if "/do/<slug:step>" in route else [*ROLL_STEPS, *CONSEQUENCE_STEPS]
        ),
        "token": [scene.table.invite_token, extra.screen_token, "x", "a%00b"],
    }
    return {"ids": ids, "slugs": slugs}


def route_argument(draw, converter: str | None, name: str, candidates, first=False) -> str:
    if converter == "int":
        known = candidates["ids"].get(name, [1])
        if first:
            return str(known[0])
        return str(draw(st.sampled_from([*known, 10**20]) | st.integers(1, 60)))
    known = candidates["slugs"].get(name, ["x"])
    return known[0] if first else draw(st.sampled_from(known))


class Fields(HTMLParser):
    """Every field name and every offered value (options, radios, buttons) on a page."""

    def __init__(self):
        super().__init__()
        self.names: set[str] = set()
        self.values: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in {"input", "select", "textarea", "button"} and attrs.get("name"):
            self.names.add(attrs["name"])
        if tag in {"option", "input", "button"} and attrs.get("value"):
            self.values.add(attrs["value"])


def fill(route: str, pick) -> str:
    return "/" + ROUTE_ARG.sub(lambda m: pick(m["converter"], m["name"]), route)


def sweep(client, route: str, user, candidates, fields: Fields, examples: int) -> None:
    """First a post with nothing, to learn what the view reads; then random posts of
    those fields and the pages' fields, with the pages' own values among hostile ones."""

    def first(converter, name):
        return str(route_argument(lambda s: None, converter, name, candidates, first=True))

    if user is not None:
        client.force_login(user)
    with Reads() as reads:
        client.post(fill(route, first), {})
    names = sorted((reads.keys | fields.names) - {"csrfmiddlewaretoken"})
    value = st.one_of(HOSTILE, st.sampled_from(sorted(fields.values)))

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(data=st.data())
    def visit(data):
        url = fill(route, lambda c, n: route_argument(data.draw, c, n, candidates))
        # The fields the view read with nothing posted, always; some of the others.
        body = data.draw(st.fixed_dictionaries({k: value for k in sorted(reads.keys)}))
        body |= data.draw(st.dictionaries(st.sampled_from(names), value, max_size=8))
        htmx = data.draw(st.booleans())
        if user is not None:
            client.force_login(user)  # a swept logout must not end the sweep
        # The dump after a refusal is the next request's dump before: one dump a request.
        before = known.pop() if known else table_state()
        response = client.post(url, body, headers={"HX-Request": "true"} if htmx else {})
        assert response.status_code < 500, (url, body)
        if 400 <= response.status_code < 500:
            after = table_state()
            assert after == before, (url, body, response.status_code)
            known.append(after)

    known: list = []
    visit()


@pytest.fixture
def extra(scene):
    """What the scene lacks for the phase and crew URLs, and another table's objects."""
    from types import SimpleNamespace

    from crews import actions as crew_actions
    from rolls import actions as flow
    from tests.factories import CharacterFactory, ClockFactory, CohortFactory, FactionFactory

    crew = crew_actions.create_crew(table=scene.table, crew_type="shadows", name="Bane")
    foreign = build_scene()
    by = Membership.objects.get(table=scene.table, user=scene.player)
    roll = flow.start_roll(by=by, character=scene.character, goal="in", action="prowl")
    return SimpleNamespace(
        foreign_table=foreign.table,
        foreign_character=foreign.character.pk,
        foreign_clock=foreign.hidden_clock.pk,
        faction=FactionFactory(table=scene.table).pk,
        hidden_faction=FactionFactory(table=scene.table, hidden=True).pk,
        claim=crew.claims.first().pk,
        cohort=CohortFactory(crew=crew).pk,
        roll=roll.pk,
        screen_token=crew_actions.new_screen_link(table=scene.table).token,
        project=ClockFactory(table=scene.table, kind="project", visibility="gm").pk,
        other_pc=CharacterFactory(table=foreign.table).pk,
    )


@pytest.mark.long
def test_every_url_as_anyone_with_hostile_values_never_fails_and_refusals_change_nothing(
    client, scene, extra
):
    from tests.security.urls import all_patterns

    routes = sorted(
        {route for _, route in all_patterns()},
        key=lambda route: (any(word in route for word in LAST), route),
    )
    assert len(routes) > 50
    fields = Fields()
    t = scene.table.pk
    pages = ["", "phase/", "crew/", "factions/", f"characters/{scene.character.pk}/"]
    for user in (scene.gm, scene.player):
        client.force_login(user)
        for page in pages:
            fields.feed(client.get(f"/tables/{t}/{page}").content.decode())
    examples = int(os.environ.get("FUZZ_EXAMPLES", "2"))
    for route in routes:
        candidates = route_values(scene, extra, route)
        sweep(client, route, scene.player, candidates, fields, examples)
        sweep(client, route, scene.gm, candidates, fields, examples)
        client.logout()
        sweep(client, route, None, candidates, fields, 1)
