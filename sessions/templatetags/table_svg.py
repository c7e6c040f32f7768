"""Geometry for the drawn clocks and dice. Pure drawing: no game rules here."""

import math
from datetime import timedelta

from django import template
from django.utils import timezone

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


@register.filter
def pips(face: int) -> list[tuple[int, int]]:
    return PIPS.get(int(face), [])


# How long after the dice fall they still tumble as a page draws them. The shared screen
# draws its whole body again on every change at the table: dice rolled a while ago must
# keep still, and the fetch that follows the roll comes well within this.
TUMBLE_WINDOW = timedelta(seconds=4)


@register.filter
def just_rolled(line) -> bool:
    """Whether a roll-log line (None or nothing: not rolled yet) was written a moment ago."""
    return bool(line) and timezone.now() - line.created < TUMBLE_WINDOW
