"""Signals for changes to a sheet, which `_write` makes in one UPDATE (no `post_save`).

Apps above this floor that keep a record of the story (the session journal) listen here.
"""

from django.dispatch import Signal

# sender=Character, character=the sheet as written, before={field: value before the write}
# for each field the write changed (empty when only a related row changed), reason=the
# GM's word for a change by hand, cause=(why, how much) for a change the rules made that
# no roll or activity tells (one of the causes below).
sheet_written = Signal()

# A PC who did not indulge their vice in downtime takes stress (play/downtime.py).
IGNORED_VICE = "ignored_vice"
