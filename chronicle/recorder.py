"""The session journal hears the changes no row keeps a time for, through signals, and
writes each down as a `Happening` (references and numbers, never a hidden name).

Like the Discord relay, it knows the apps below and none of them knows it. It hears the
news each app sends by name: play's `phase_moved` and `score_settled`, crews'
`faction_shifted`, sessions' `clock_moved`, characters' `sheet_written`; and the rows
that are news by being made (a downtime activity, a flashback) through Django's
`post_save`. Never which fields a save wrote: a step that saves one field more, or
writes in an UPDATE, is still heard. A change rolled back takes its happening with it:
each signal is sent, and the row written, in the change's transaction.
"""

from django.apps import apps
from django.db.models.signals import post_save

from blades.rules.character import track_length
from characters.signals import IGNORED_VICE, sheet_written
from crews.signals import faction_shifted
from play import signals as play_signals
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
    play_signals.phase_moved.connect(phase_moved, sender=Phase, dispatch_uid="journal.phase")
    play_signals.score_settled.connect(score_settled, sender=Score, dispatch_uid="journal.score")
    faction_shifted.connect(faction_shifted_to, sender=Faction, dispatch_uid="journal.faction")
    post_save.connect(activity_saved, sender=Activity, dispatch_uid="journal.activity")
    post_save.connect(flashback_saved, sender=Flashback, dispatch_uid="journal.flashback")
    clock_moved.connect(clock_changed, sender=Clock, dispatch_uid="journal.clock")
    sheet_written.connect(sheet_changed, sender=Character, dispatch_uid="journal.sheet")


def phase_moved(sender, phase, **kw) -> None:
    Happening.objects.create(
        table_id=phase.table_id,
        kind=Happening.Kind.PHASE,
        # The score that begins with the step: the journal tells its plan and target there.
        score_id=phase.score_id if phase.step == phase.Step.SCORE else None,
        data={"step": phase.step},
    )


def score_settled(sender, score, settled: str, **kw) -> None:
    """A score's payoff (nothing, when the crew gave up), its heat or its entanglement."""
    if settled == play_signals.PAYOFF:
        kind = Happening.Kind.PAYOFF
        data = {"rep": score.rep, "coin": score.coin, "tithe": score.tithe}
    elif settled == play_signals.HEAT:
        crew = apps.get_model("crews", "Crew").objects.filter(table_id=score.table_id)
        books = crew.values("heat", "wanted").first() or {}
        kind, data = Happening.Kind.HEAT, {"taken": score.heat, **books}
    else:
        # The resolution is read from the score, in words: the journal is read in the
        # table's language, which may change after.
        kind, data = Happening.Kind.ENTANGLEMENT, {"name": score.entanglement}
    Happening.objects.create(table_id=score.table_id, kind=kind, score=score, data=data)


def faction_shifted_to(sender, faction, **kw) -> None:
    Happening.objects.create(
        table_id=faction.table_id,
        kind=Happening.Kind.FACTION_STATUS,
        faction=faction,
        data={"status": faction.status},
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
