"""`make screenshots`: the main pages of a seeded demo table and each step of its phase,
as a GM and a player see them on a desktop (1280 px) and a phone (390 px), and the shared
screen on a 1080p TV and as a stream's overlay, written to docs/screenshots/.

Run by name (pytest collects only test_*.py on its own); it uses the browser suite's
fixtures, so the pages come from a real daphne like every browser test.
"""

import random
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from blades.rules.rolls import RollKind
from characters import actions as sheet
from characters.content import load_standard_content
from crews import actions as crew_actions
from play import downtime, phases
from rolls import actions as flow
from sessions import actions
from sessions.models import Clock
from tests.browsers import PHONE, wait_for_socket
from tests.factories import CharacterFactory, CharacterItemFactory
from tests.helpers import Dice

pytestmark = pytest.mark.browser
OUT = Path(settings.BASE_DIR) / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}


def seed(make_user):
    load_standard_content(apps)
    gm, ada, bo = (make_user(name) for name in ("gm", "ada", "bo"))
    table = actions.create_table(gm=gm, name="The Crows' Nest")
    for player in (ada, bo):
        actions.join_table(user=player, token=table.invite_token)
    crew = crew_actions.create_crew(
        table=table, crew_type="shadows", name="The Lanterns", upgrades=["vault", "tools"],
        contact="Fitz",
    )  # fmt: skip
    crew_actions.add_rep(crew=crew, amount=3)
    for name, tier, status, hidden in (
        ("Bluecoats", 2, -1, False),
        ("The Lampblacks", 2, -2, False),
        ("The Circle of Flame", 3, 1, True),
    ):
        crew_actions.create_faction(
            table=table, name=name, tier=tier, hold="strong", status=status, hidden=hidden
        )
    crew_actions.add_heat(crew=crew, amount=2)
    crew_actions.add_coin(crew=crew, amount=2)
    sable = CharacterFactory(
        table=table, owner=ada, name="Sable", alias="the Knife", load="normal", stress=3
    )
    for name, load, armor in (
        ("A blade or two", 1, ""),
        ("Fine lockpicks", 1, ""),
        ("Armor", 2, "armor"),
    ):
        CharacterItemFactory(character=sable, name=name, load=load, armor=armor, checked=True)
    sheet.add_harm(character=sable, level=2, description="Broken hand")
    sheet.add_harm(character=sable, level=1, description="Bruised")
    sheet.add_coin(character=sable, amount=2)
    sheet.mark_xp(character=sable, track="prowess", amount=2)
    CharacterFactory(
        table=table,
        owner=bo,
        name="Nib",
        playbook=sable.playbook.__class__.objects.get(key="lurk", table=None),
        stress=5,
        traumas=["cold"],
    )
    for name, segments, filled, kind, visibility in (
        ("Bluecoats close in", 6, 2, Clock.Kind.DANGER, Clock.Visibility.EVERYONE),
        ("Crack the vault", 8, 5, Clock.Kind.MISSION, Clock.Visibility.EVERYONE),
        ("The Lampblacks' revenge", 8, 3, Clock.Kind.FACTION, Clock.Visibility.GM),
    ):
        clock = actions.create_clock(
            table=table, name=name, segments=segments, kind=kind, visibility=visibility
        )
        actions.tick_clock(clock=clock, by=filled)
    rng = random.Random(3)
    for roller, note in ((ada, "Over the rooftops"), (bo, "Talk past the guard"), (gm, "")):
        actions.quick_roll(
            table=table, roller=roller, kind=RollKind.ACTION, pool=2, note=note, rng=rng
        )
    phases.start_score(
        table=table, plan="stealth", detail="the roof", target_name="Bellweather Crematorium",
        target_tier=2,
    )  # fmt: skip
    return table, sable


def test_screenshots(person, make_user, server):
    table, sable = seed(make_user)
    OUT.mkdir(parents=True, exist_ok=True)
    pages = {
        "table": f"/tables/{table.pk}/",
        "sheet": f"/tables/{table.pk}/characters/{sable.pk}/",
        "crew": f"/tables/{table.pk}/crew/",
        "phase": f"/tables/{table.pk}/phase/",
        "screen": f"/tables/{table.pk}/screen/",
        "factions": f"/tables/{table.pk}/factions/",
    }
    for who in ("gm", "ada"):
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page = person(who, viewport=viewport)
            # Dice caught mid-tumble look broken in a still picture.
            page.emulate_media(reduced_motion="reduce")
            for name, path in pages.items():
                page.goto(server.url + path)
                expect(page.locator("h1").first).to_be_visible()
                wait_for_socket(page)
                page.evaluate("document.fonts.ready")
                page.screenshot(path=OUT / f"{name}-{who}-{size}.png", full_page=True)
    # The phase's steps, each as its cards read then: the score rolled, then downtime's
    # payoff, heat, entanglements (the book's table, the ways out as cards), the activities
    # as cards, and the end-of-session xp ticked.
    gm, ada = table.gm, sable.owner
    nib = sable.__class__.objects.get(table=table, name="Nib")
    steps = {
        "payoff": lambda: (
            phases.roll_engagement(
                table=table, roller=gm, marks={"plan": "advantage"}, rng=Dice(5, 3)
            ),
            phases.end_score(table=table),
        ),
        "heat": lambda: phases.payoff(table=table, size="standard", shares={sable: 2, nib: 1}),
        "entanglement": lambda: (
            phases.take_heat(table=table, exposure="quiet", high_profile=True),
            phases.roll_entanglement(table=table, roller=gm, rng=Dice(6, 6)),
        ),
        "downtime": lambda: (
            phases.resolve_entanglement(table=table, roller=gm, name="Cooperation", choice="avoid"),
            downtime.indulge_vice(character=sable, roller=ada, rng=Dice(2, 5, 3)),
            downtime.acquire_asset(
                character=sable, roller=ada, description="A fast carriage", rng=Dice(4, 6)
            ),
            downtime.recover(
                character=nib, roller=nib.owner, healer="npc", quality=2, rng=Dice(4, 3)
            ),
        ),
        "xp": lambda: (downtime.end_downtime(table=table), downtime.start_xp_review(table=table)),
    }
    for step, take in steps.items():
        take()
        for who in ("gm", "ada"):
            for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                page = person(who, viewport=viewport)
                page.emulate_media(reduced_motion="reduce")
                page.goto(f"{server.url}/tables/{table.pk}/phase/")
                wait_for_socket(page)
                page.evaluate("document.fonts.ready")
                page.screenshot(path=OUT / f"phase-{step}-{who}-{size}.png", full_page=True)
    # Crew creation, as the GM founds the crew of a second table.
    empty = actions.create_table(gm=table.gm, name="The Empty Chair")
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = person("gm", viewport=viewport)
        page.goto(f"{server.url}/tables/{empty.pk}/crew/")
        page.get_by_role("radio", name=re.compile("^Smugglers")).check()
        expect(page.get_by_role("radio", name="Fitz")).to_have_count(0)
        expect(page.get_by_role("radio", name="Sera, arms dealer")).to_be_visible()
        page.evaluate("document.fonts.ready")
        page.screenshot(path=OUT / f"crew-new-gm-{size}.png", full_page=True)
    # The custom playbook page, folded into the parts of a playbook, as the GM writes one.
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = person("gm", viewport=viewport)
        page.goto(f"{server.url}/tables/{table.pk}/playbooks/new/")
        expect(page.get_by_role("heading", name="Special abilities")).to_be_visible()
        page.evaluate("document.fonts.ready")
        page.screenshot(path=OUT / f"custom-playbook-gm-{size}.png", full_page=True)
    # The wizard's first step, the playbooks as cards, as Bo joins the second table.
    actions.join_table(user=get_user_model().objects.get(username="bo"), token=empty.invite_token)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = person("bo", viewport=viewport)
        page.goto(f"{server.url}/tables/{empty.pk}/characters/new/")
        page.get_by_role("radio", name=re.compile("^Whisper")).check()
        page.evaluate("document.fonts.ready")
        page.screenshot(path=OUT / f"wizard-playbook-bo-{size}.png", full_page=True)
    # The TV on the shared link, logged out, while Sable's roll is on the table.
    by = sable.owner.memberships.get(table=table)
    roll = flow.start_roll(by=by, character=sable, goal="Cut down the watchman", action="skirmish")
    flow.assist(by=table.memberships.get(user__username="bo"), roll=roll)
    flow.set_terms(
        by=table.memberships.get(user=table.gm), roll=roll, position="desperate", effect=3
    )
    flow.roll_dice(by=by, roll=roll, rng=random.Random(19))
    shared = crew_actions.new_screen_link(table=table)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = person(viewport=viewport)
        page.emulate_media(reduced_motion="reduce")
        page.goto(f"{server.url}/screen/{shared.token}/")
        wait_for_socket(page)
        page.evaluate("document.fonts.ready")
        page.screenshot(path=OUT / f"screen-tv-{size}.png", full_page=True)
    # A real TV, and the party's strip as a stream's overlay sees it (the PNG is see-through).
    tv = person(viewport={"width": 1920, "height": 1080})
    overlay = person(viewport={"width": 1200, "height": 240})
    for page, path in ((tv, ""), (overlay, "party/?width=1200")):
        page.emulate_media(reduced_motion="reduce")
        page.goto(f"{server.url}/screen/{shared.token}/{path}")
        wait_for_socket(page)
        page.evaluate("document.fonts.ready")
    tv.screenshot(path=OUT / "screen-tv-1080p.png")
    overlay.screenshot(path=OUT / "overlay-party.png", omit_background=True)
    # The GM's consequence cards on Nib's partial success, as the README shows them.
    bo = table.memberships.get(user__username="bo")
    lock = flow.start_roll(by=bo, character=nib, goal="Slip the vault's lock", action="tinker")
    flow.accept_as_proposed(by=table.memberships.get(user=table.gm), roll=lock)
    flow.roll_dice(by=bo, roll=lock, rng=Dice(4, 4, 4, 4))  # a 4 at the top, however many
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = person("gm", viewport=viewport)
        page.emulate_media(reduced_motion="reduce")
        page.goto(f"{server.url}/tables/{table.pk}/")
        wait_for_socket(page)
        cards = page.locator(f"#flow-{lock.pk}")
        expect(cards.get_by_role("group", name="Harm", exact=True)).to_be_visible()
        page.evaluate("document.fonts.ready")
        cards.screenshot(path=OUT / f"consequence-cards-gm-{size}.png")
    assert get_user_model().objects.count() == 3
