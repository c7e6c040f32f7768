"""Random values into every form of the table page and the sheet: never a 500, and a
refused post changes nothing. The default (8 examples a form, over 60-odd forms) keeps
`make test` quick; FUZZ_EXAMPLES=200 digs deeper.

The forms are read from the pages the GM sees (who sees every form), so a form added
later is fuzzed without touching this test.
"""

import os
import re
from html.parser import HTMLParser

from django.forms.models import model_to_dict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from characters.models import Character, CharacterAbility, CharacterItem, Contact, GmNote
from sessions.models import Clock, Membership, Roll, Table

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
