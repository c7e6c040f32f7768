"""The session journal hears the changes no row keeps a time for, through signals, and
writes each down as a `Happening` (references and numbers, never a hidden name).

Like the Discord relay, it knows the apps below and none of them knows it: phase, score,
faction status and downtime through Django's `post_save`, clocks through sessions'
`clock_moved`, sheets through characters' `sheet_written`. A change rolled back takes
its happening with it: the row is written in the same transaction.
"""

from django.apps import apps
from django.db.models.signals import post_save

from blades.rules.character import track_length
from characters.signals import IGNORED_VICE, sheet_written
from sessions.signals import clock_moved

from .models import Happening

HARM_LEVELS = ("1", "2", "3", "4")
XP_TRACKS = ("playbook", "insight", "prowess", "resolve")
ACTIONS = (
    "hunt", "study", "survey", "tinker", "finesse", "prowl", "skirmish", "wreck",
    "attune", "command", "consort", "sway",
)  # fmt: skip


def connect() -> None:
    Clock = apps.get_model("table_sessions", "Clock")
    Character = apps.get_model("characters", "Character")
    Faction = apps.get_model("crews", "Faction")
    Phase = apps.get_model("play", "Phase")
    Score = apps.get_model("play", "Score")
    Activity = apps.get_model("play", "DowntimeActivity")
    Flashback = apps.get_model("play", "Flashback")
    post_save.connect(phase_saved, sender=Phase, dispatch_uid="journal.phase")
    post_save.connect(score_saved, sender=Score, dispatch_uid="journal.score")
    post_save.connect(faction_saved, sender=Faction, dispatch_uid="journal.faction")
    post_save.connect(activity_saved, sender=Activity, dispatch_uid="journal.activity")
    post_save.connect(flashback_saved, sender=Flashback, dispatch_uid="journal.flashback")
    clock_moved.connect(clock_changed, sender=Clock, dispatch_uid="journal.clock")
    sheet_written.connect(sheet_changed, sender=Character, dispatch_uid="journal.sheet")


def phase_saved(sender, instance, created: bool, raw: bool = False, update_fields=None, **kw):
    if raw or created or (update_fields is not None and "step" not in update_fields):
        return
    Happening.objects.create(
        table_id=instance.table_id,
        kind=Happening.Kind.PHASE,
        # The score that begins with the step: the journal tells its plan and target there.
        score_id=instance.score_id if instance.step == instance.Step.SCORE else None,
        data={"step": instance.step},
    )


def score_saved(sender, instance, created: bool, raw: bool = False, update_fields=None, **kw):
    """Payoff, heat and the entanglement are each one save of the fields they set."""
    if raw or created or not update_fields:
        return
    fields = set(update_fields)
    kind, data = None, {}
    if {"rep", "coin"} <= fields:
        kind = Happening.Kind.PAYOFF
        data = {"rep": instance.rep, "coin": instance.coin, "tithe": instance.tithe}
    elif "heat" in fields:
        crew = apps.get_model("crews", "Crew").objects.filter(table_id=instance.table_id)
        books = crew.values("heat", "wanted").first() or {}
        kind, data = Happening.Kind.HEAT, {"taken": instance.heat, **books}
    elif "resolution" in fields:
        # The resolution is read from the score, in words: the journal is read in the
        # table's language, which may change after.
        kind, data = Happening.Kind.ENTANGLEMENT, {"name": instance.entanglement}
    if kind:
        Happening.objects.create(table_id=instance.table_id, kind=kind, score=instance, data=data)


def faction_saved(sender, instance, created: bool, raw: bool = False, update_fields=None, **kw):
    # The GM's status shifts save only the status; full edits are corrections, not news.
    if not raw and update_fields and set(update_fields) == {"status"}:
        Happening.objects.create(
            table_id=instance.table_id,
            kind=Happening.Kind.FACTION_STATUS,
            faction=instance,
            data={"status": instance.status},
        )


def activity_saved(sender, instance, created: bool, raw: bool = False, **kw):
    if created and not raw:
        Happening.objects.create(
            table_id=instance.character.table_id,
            kind=Happening.Kind.DOWNTIME,
            activity=instance,
            character_id=instance.character_id,
        )


def flashback_saved(sender, instance, created: bool, raw: bool = False, **kw):
    """A flashback the GM called on the phase page, with what it costs."""
    if created and not raw:
        Happening.objects.create(
            table_id=instance.character.table_id,
            kind=Happening.Kind.FLASHBACK,
            character_id=instance.character_id,
            data={"note": instance.note, "stress": instance.stress, "downtime": instance.downtime},
        )


def clock_changed(sender, clock, before: int, **kw) -> None:
    if clock.full and before < clock.segments:
        Happening.objects.create(
            table_id=clock.table_id, kind=Happening.Kind.CLOCK_FILLED, clock=clock
        )


def new_harm(before: dict, after: dict) -> list[tuple[str, str]]:
    """Harm written anew: not harm that moved rows (healed a level, reduced by resisting,
    pushed up by a full row), which was told when it was suffered."""
    old = {level: list(before.get(level, [])) for level in HARM_LEVELS}
    added = []
    for level in HARM_LEVELS:
        for entry in after.get(level, []):
            if entry in old[level]:
                old[level].remove(entry)
            elif entry:
                added.append((level, entry))
    moved = [entry for entries in old.values() for entry in entries]
    found = []
    for level, entry in added:
        if entry in moved:
            moved.remove(entry)
        else:
            found.append((level, entry))
    return found


def sheet_changed(sender, character, before: dict, reason: str = "", cause=None, **kw) -> None:
    """Harm newly written, a trauma taken or cleared, xp marked and advances spent on the
    sheet, stress the rules marked where no roll tells it; `reason` is the GM's word for
    a change made by hand, `cause` the rules' (why, how much)."""
    events: list[tuple[str, dict]] = []
    if cause and cause[0] == IGNORED_VICE:
        events.append((Happening.Kind.STRESS, {"stress": cause[1], "cause": cause[0]}))
    if "harm" in before:
        for level, text in new_harm(before["harm"] or {}, character.harm or {}):
            events.append((Happening.Kind.HARM, {"level": int(level), "text": text}))
    if "traumas" in before:
        said = {"reason": reason} if reason else {}
        for trauma in character.traumas:
            if trauma not in before["traumas"]:
                events.append((Happening.Kind.TRAUMA, {"trauma": trauma, **said}))
        for trauma in before["traumas"]:
            if trauma not in character.traumas:
                events.append((Happening.Kind.TRAUMA, {"trauma": trauma, "cleared": True, **said}))
    for track in XP_TRACKS:
        field, advances = f"{track}_xp", f"{track}_advances"
        if field in before:
            # A full track rolls over into an advance: count the advance's worth too.
            earned = getattr(character, advances) - before.get(
                advances, getattr(character, advances)
            )
            gained = getattr(character, field) - before[field] + earned * track_length(track)
            if gained > 0:
                events.append((Happening.Kind.XP, {"track": track, "xp": gained, "earned": earned}))
        elif before.get(advances, 0) > getattr(character, advances):
            raised = next((a for a in ACTIONS if a in before), "")
            events.append((Happening.Kind.ADVANCE, {"track": track, "action": raised}))
    Happening.objects.bulk_create(
        Happening(table_id=character.table_id, kind=kind, character=character, data=data)
        for kind, data in events
    )
