"""Clicks at the same instant: each from its own thread, with its own database connection.

For the tests that prove counters and steps change atomically. Each test must run with
`django_db(transaction=True)`, so that the threads see what the test created.
"""

import threading
from functools import partial

from django.db import connection
from django.test import Client


def at_once(calls: list, refused: tuple[type[Exception], ...] = ()) -> list:
    """Run every call in its own thread, all released together.

    Returns what each call returned, in order; an exception of a `refused` type takes
    its call's place. Any other exception fails the test once every thread has ended."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)
    failures: list[BaseException] = []

    def run(index: int, call) -> None:
        # Connected before the start, so that connecting does not spread the clicks out.
        connection.ensure_connection()
        barrier.wait()
        try:
            results[index] = call()
        except refused as error:
            results[index] = error
        except BaseException as error:  # noqa: BLE001 - raised again in the test's thread
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return results


def post_at_once(posts: list[tuple], headers: dict | None = None) -> list[int]:
    """Each (user, url, data) posted by its own signed-in browser at the same instant.

    Returns the status codes, in order."""
    calls = []
    for user, url, data in posts:
        browser = Client(headers=headers)
        browser.force_login(user)
        calls.append(partial(browser.post, url, data))
    return [response.status_code for response in at_once(calls)]
