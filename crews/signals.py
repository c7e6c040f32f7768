"""The crew's and the factions' news, sent by their actions (crews/actions.py) in their
transaction, for the apps above that keep a record (the journal)."""

from django.dispatch import Signal

# sender=Faction, faction=the faction at its new status: the GM's shift of its status, not
# an edit of the faction's fields (a correction, not news).
faction_shifted = Signal()
