"""Both daphne processes and Redis killed under open pages, changes made while away.

Redis goes first: the pages' sockets drop, and a change posted meanwhile still commits
and answers. Then both processes die; Redis and A come back and the GM changes more
through A while B is still down. When B is back, every page has reconnected by itself
and shows exactly what the database holds, for its viewer.
"""

from playwright.sync_api import expect

from tests.browsers import wait_for_socket
from tests.scale.support import (
    SCALE,
    expect_the_database,
    open_table,
    roll,
    roll_log,
    table_of_three,
    tick,
)

pytestmark = SCALE


def test_pages_catch_up_after_redis_and_both_processes_restart(
    servers, redis_server, person, make_user
):
    a, b = servers
    table = table_of_three(make_user)
    gm = open_table(person("gm"), a.url, table)
    bo = open_table(person("bo"), a.url, table)
    ada = open_table(person("ada", base_url=b.url), b.url, table)
    pages = {gm: True, bo: False, ada: False}  # page: is the GM
    for page in pages:
        wait_for_socket(page)

    redis_server.kill()
    for page in pages:
        wait_for_socket(page, "closed")
    # Nobody can be told, but the change commits and the GM's page shows its answer.
    tick(gm, "Bluecoats close in")
    expect(gm.get_by_role("img", name="1 of 4 segments filled")).to_be_visible()

    a.stop()
    b.stop()
    redis_server.start()
    a.start()
    for page in (gm, bo):
        wait_for_socket(page)
    roll(gm, "While B was down")
    tick(gm, "Inspectors")
    expect(roll_log(bo).filter(has_text="While B was down")).to_be_visible()
    expect(bo.get_by_role("img", name="1 of 4 segments filled")).to_be_visible()
    # Ada's page, on B, is still offline and still shows the old table.
    expect(ada.locator("body")).to_have_attribute("data-socket", "closed")
    expect(roll_log(ada)).to_have_count(0)

    b.start()
    wait_for_socket(ada)
    for page, is_gm in pages.items():
        expect_the_database(page, table, is_gm=is_gm)
