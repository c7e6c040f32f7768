"""Signals for changes to a sheet, which `_write` makes in one UPDATE (no `post_save`).

Apps above this floor that keep a record of the story (the session journal) listen here.
"""

from django.dispatch import Signal

# sender=Character, character=the sheet as written, before={field: value before the write}
# for each field the write changed (empty when only a related row changed).
sheet_written = Signal()
