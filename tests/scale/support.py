"""What the scale tests share: a table of three, what its pages must show, raw sockets."""

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Page, expect
from websockets.asyncio.client import connect

from sessions import queries
from sessions.models import Clock
from tests.factories import ClockFactory, MembershipFactory, TableFactory

SCALE = [
    pytest.mark.scale,
    pytest.mark.skipif(
        not (
            os.environ.get("DATABASE_URL", "").startswith("postgres")
            and os.environ.get("REDIS_URL")
        ),
        reason="run under `python -m tests.services` (make test-scale)",
    ),
]


def table_of_three(make_user):
    """A GM, players ada and bo, a clock everyone sees and one only the GM sees."""
    table = TableFactory(gm=make_user("gm"))
    for name in ("ada", "bo"):
        MembershipFactory(table=table, user=make_user(name))
    ClockFactory(table=table, name="Bluecoats close in", segments=4)
    ClockFactory(table=table, name="Inspectors", segments=6, visibility=Clock.Visibility.GM)
    return table


def open_table(page: Page, base_url: str, table) -> Page:
    page.goto(f"{base_url}/tables/{table.pk}/")
    return page


def roll(page: Page, note: str, dice: int = 2) -> None:
    form = page.get_by_role("region", name="Rolls")
    form.get_by_label("Roll type").select_option(label="Fortune")
    form.get_by_label("Dice", exact=True).fill(str(dice))
    form.get_by_label("Note").fill(note)
    form.get_by_role("button", name="Roll the dice").click()


def tick(page: Page, clock_name: str) -> None:
    page.get_by_role("button", name=f"Tick {clock_name}", exact=True).click()


def roll_log(page: Page):
    return page.get_by_role("region", name="Rolls").get_by_role("listitem")


def expect_the_database(page: Page, table, *, is_gm: bool) -> None:
    """The page shows exactly the clocks and rolls the database holds for this viewer."""
    clocks = list(queries.visible_clocks(table.pk, is_gm))
    region = page.get_by_role("region", name="Clocks")
    expect(region.get_by_role("article")).to_have_count(len(clocks))
    for clock in clocks:
        label = f"{clock.filled} of {clock.segments} segments filled"
        shown = region.get_by_role("article", name=clock.name, exact=True)
        expect(shown.get_by_role("img", name=label, exact=True)).to_be_visible()
    rolls = list(queries.recent_rolls(table.pk, is_gm))
    expect(roll_log(page)).to_have_count(len(rolls))
    for stored in rolls:
        expect(roll_log(page).filter(has_text=stored.note)).to_have_count(1)


def run_in_thread(coroutine):
    """asyncio.run where Playwright's sync API may already hold this thread's loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def table_socket(server, table_id: int, cookie: str):
    """A raw websocket to the table on one process, as the user of `cookie`."""
    return await connect(
        f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}/",
        origin=server.url,
        additional_headers=[("Cookie", cookie)],
    )
