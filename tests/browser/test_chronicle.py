"""The dice statistics and the GM's Discord page in the browser."""

import pytest
from playwright.sync_api import expect

from tests.browsers import assert_accessible, start_table

pytestmark = pytest.mark.browser

WEBHOOK = "https://discord.com/api/webhooks/123456789012345678/example-token"


def test_dice_statistics_and_the_discord_page(person, make_user):
    gm, ada, bo = start_table(person, make_user)
    ada.get_by_label("Roll type").select_option(label="Fortune")
    ada.get_by_label("Dice").fill("3")
    ada.get_by_role("button", name="Roll the dice").click()
    expect(ada.locator(".roll")).to_have_count(1)

    ada.get_by_role("link", name="Dice statistics").click()
    expect(ada.get_by_role("heading", name="ada")).to_be_visible()
    row = ada.get_by_role("row").filter(has=ada.get_by_role("rowheader", name="Fortune"))
    expect(row).to_contain_text("3d")
    expect(row.get_by_role("img")).to_be_visible()
    assert_accessible(ada)

    # Only the GM has the Discord page.
    expect(bo.get_by_role("link", name="Discord")).to_have_count(0)
    gm.get_by_role("link", name="Discord").click()
    gm.get_by_label("Players' webhook").fill("https://example.com/hook")
    gm.get_by_role("button", name="Save webhooks").click()
    expect(gm.get_by_text("Paste a Discord webhook URL")).to_be_visible()
    gm.get_by_label("Players' webhook").fill(WEBHOOK)
    gm.get_by_role("button", name="Save webhooks").click()
    expect(gm.get_by_label("Players' webhook")).to_have_value(WEBHOOK)
    assert_accessible(gm)
