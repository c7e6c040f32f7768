"""Every table URL of the URLconf, filled in with real ids, so new views are covered
by the security tests the day they are added."""

from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver, reverse

UNKNOWN_ID = 999_999


@dataclass(frozen=True)
class TableUrl:
    name: str
    url: str


def _patterns(patterns=None, prefix=""):
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield entry, prefix + str(entry.pattern)


def all_patterns() -> list[tuple[URLPattern, str]]:
    """Every URL pattern of the project with its whole route (prefixes included)."""
    return list(_patterns())


def table_patterns() -> list[URLPattern]:
    return [p for p, route in _patterns() if "<int:table_id>" in route]


def character_moves() -> list[str]:
    from characters.steps import SHEET_STEPS

    return list(SHEET_STEPS)


def table_urls(**ids) -> list[TableUrl]:
    """Each table URL reversed with these ids (table_id, clock_id, character_id, user_id);
    the sheet's move URL once per move."""
    urls = []
    for pattern in table_patterns():
        converters = pattern.pattern.converters
        kwargs = {name: ids[name] for name in converters if name in ids}
        if pattern.name == "character_move":
            for move in character_moves():
                urls.append(
                    TableUrl(
                        f"{pattern.name}:{move}",
                        reverse(pattern.name, kwargs={**kwargs, "step": move}),
                    )
                )
            continue
        # Objects the scene does not make (yet) get an id nobody has: the table check
        # must still refuse outsiders before the object is even looked up.
        for name, converter in converters.items():
            if name not in kwargs:
                kwargs[name] = UNKNOWN_ID if converter.regex == "[0-9]+" else "unknown"
        urls.append(TableUrl(pattern.name, reverse(pattern.name, kwargs=kwargs)))
    return urls
