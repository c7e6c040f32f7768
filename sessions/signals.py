"""Signals for changes Django's own signals cannot see.

A clock's segments move in one UPDATE (so two ticks at once cannot overshoot), and
`QuerySet.update` sends no `post_save`. Apps above this floor that follow clocks (the
Discord relay) listen here instead.
"""

from django.dispatch import Signal

# sender=Clock, clock=the clock as committed by this change, before=its `filled` as the
# caller last read it.
clock_moved = Signal()
