"""The one check of text that comes from a file (a JSON upload: a backup, a Foundry
export), run on the parsed document before any of it is read: a form field cannot refuse
what JSON's escapes put inside a file."""

import re

from django.utils.translation import gettext

# Text a file can carry that a page cannot be encoded with (a lone surrogate, which JSON's
# `\ud800` escape makes) or that no PostgreSQL text column holds (NUL, `\u0000`). A form's
# own fields already refuse NUL, and a browser's UTF-8 cannot carry a surrogate: only
# parsed files bring these.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
PATH_SHOWN = 120


def _shown(text: str) -> str:
    return UNSTORABLE.sub(lambda found: f"\\u{ord(found.group()):04x}", text[:40])


def _unstorable(path: str, text: str, *, in_name: bool) -> str:
    bad = UNSTORABLE.search(text).group()
    params = {
        "kind": gettext("a NUL character") if bad == "\x00" else gettext("a lone surrogate"),
        "path": path if len(path) <= PATH_SHOWN else "…" + path[-PATH_SHOWN:],
        "escape": _shown(bad),
    }
    if in_name:
        said = gettext(
            "`%(path)s` in the file is named with %(kind)s (%(escape)s), which cannot be "
            "saved as text."
        )
    elif path:
        said = gettext(
            "`%(path)s` in the file holds %(kind)s (%(escape)s), which cannot be saved as text."
        )
    else:
        said = gettext("The file holds %(kind)s (%(escape)s), which cannot be saved as text.")
    return said % params


def unstorable_text(document, *, limit: int = 10) -> list[str]:
    """The one check of text that comes from a file, run on the parsed JSON before any of
    it is read: each string (keys too) holding what no column can store, named by its
    path in the file (`items[3].name`). At most `limit` problems; none when it is clean."""
    problems: list[str] = []
    # A stack, not recursion: a file nests as deep as the JSON parser allowed.
    stack = [("", document)]
    while stack and len(problems) < limit:
        path, value = stack.pop()
        if isinstance(value, str):
            if UNSTORABLE.search(value):
                problems.append(_unstorable(path, value, in_name=False))
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                inner = f"{path}.{_shown(key)}" if path else _shown(key)
                if UNSTORABLE.search(key):
                    problems.append(_unstorable(inner, key, in_name=True))
                stack.append((inner, item))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", item) for i, item in reversed(list(enumerate(value))))
    return problems[:limit]
