"""Geometry for the drawn clocks and dice. Pure drawing: no game rules here."""

import math
from datetime import timedelta
from functools import lru_cache

from django import template
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()

RADIUS = 46
CENTER = 50

# Pip positions on a 24-unit die face, by face value.
PIPS = {
    1: [(12, 12)],
    2: [(6, 6), (18, 18)],
    3: [(6, 6), (12, 12), (18, 18)],
    4: [(6, 6), (18, 6), (6, 18), (18, 18)],
    5: [(6, 6), (18, 6), (12, 12), (6, 18), (18, 18)],
    6: [(6, 6), (18, 6), (6, 12), (18, 12), (6, 18), (18, 18)],
}


def _point(fraction: float) -> str:
    # Clock faces start at twelve o'clock and fill clockwise.
    angle = 2 * math.pi * fraction - math.pi / 2
    return f"{CENTER + RADIUS * math.cos(angle):.2f} {CENTER + RADIUS * math.sin(angle):.2f}"


@register.simple_tag
def clock_wedges(segments: int, filled: int) -> list[dict]:
    wedges = []
    for index in range(segments):
        start, end = _point(index / segments), _point((index + 1) / segments)
        path = f"M {CENTER} {CENTER} L {start} A {RADIUS} {RADIUS} 0 0 1 {end} Z"
        wedges.append({"d": path, "on": index < filled})
    return wedges


@register.simple_tag
def dice_faces(faces, counting) -> SafeString:
    """The dice as drawn SVG, the die that counts marked. A page draws dozens of dice and
    there are few ways they fall, so each way is drawn once per language (issue 36: the
    table page spent a fifth of its time drawing pips in the template)."""
    counting = counting if isinstance(counting, int) else None
    return _drawn(tuple(int(face) for face in faces), counting, translation.get_language())


@lru_cache(maxsize=4096)
def _drawn(faces: tuple[int, ...], counting: int | None, language: str | None) -> SafeString:
    counts = " " + gettext("(counts)")
    return mark_safe(
        "".join(
            f'<svg class="die{" counting" if index == counting else ""}" viewBox="0 0 24 24"'
            f' role="img" aria-label="{face}{counts if index == counting else ""}">'
            '<rect x="1" y="1" width="22" height="22" rx="4"/>'
            + "".join(f'<circle cx="{x}" cy="{y}" r="2.2"/>' for x, y in PIPS.get(face, []))
            + "</svg>"
            for index, face in enumerate(faces)
        )
    )


# How long after the dice fall they still tumble as a page draws them. The shared screen
# draws its whole body again on every change at the table: dice rolled a while ago must
# keep still, and the fetch that follows the roll comes well within this.
TUMBLE_WINDOW = timedelta(seconds=4)


@register.filter
def just_rolled(line) -> bool:
    """Whether a roll-log line (None or nothing: not rolled yet) was written a moment ago."""
    return bool(line) and timezone.now() - line.created < TUMBLE_WINDOW
