"""Every change to the crew and the factions: one transaction each, pushed on commit.

The books (rep, heat, coin, xp, advances, upgrades) change by compare-and-set on the
crew's `version` (`_change_books`): the rules always compute from the latest books and a
write that lost the race is recomputed, so concurrent clicks never pass a track's
limits. Rarer changes re-read the crew inside a transaction (`_locked`): SQLite's
IMMEDIATE transactions and PostgreSQL's row lock both make the next writer wait.
Refusals raise `RuleError` with a message for the player; nothing changes then.
The phase steps (payoff, heat, entanglements, downtime) call these same functions.
"""

from collections.abc import Callable

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_noop

from blades import content
from blades.rules import abilities as ability_rules
from blades.rules import crew as rules
from blades.rules import score as score_rules
from blades.rules.clocks import validate_clock_size
from blades.rules.errors import RuleError, ngettext
from characters import actions as character_actions
from characters.models import Character
from sessions import live
from sessions.models import Clock, Table

from . import live as crew_live
from . import queries as crew_queries
from .models import (
    CUSTOM,
    Claim,
    Cohort,
    Crew,
    Faction,
    FactionClock,
    Screen,
    crew_type_data,
    new_screen_token,
)
from .sheet import ability_choices, prison_claim_choices, upgrade_choices
from .signals import faction_shifted

CAS_TRIES = 200  # enough for a table's worth of simultaneous clicks
ALL_PARTS = ("books", "sheet", "abilities", "upgrades", "claims", "cohorts")


def _locked(crew: Crew) -> Crew:
    return Crew.objects.select_for_update().get(pk=crew.pk)


def _push(crew_or_table_id: Crew | int, *parts: str) -> None:
    table_id = crew_or_table_id if isinstance(crew_or_table_id, int) else crew_or_table_id.table_id
    crew_live.push_crew(table_id, parts=parts or ALL_PARTS)


def _push_factions(table_id: int, *, players_see: bool) -> None:
    """The ladder, and the crew's books (a faction at war changes the crew's hold and
    downtime); neither goes to the players when they cannot see the faction."""
    crew_live.push_factions(table_id, players=players_see)
    crew_live.push_crew(table_id, parts=("books",), players=players_see)


# --- The crew and its sheet ------------------------------------------------------------


def create_crew(
    *, table: Table, crew_type: str, name: str, custom_type: str = "", ability: str = "",
    starting: list[str] | None = None, upgrades: list[str] = (), contact: str = "",
) -> Crew:  # fmt: skip
    """A new crew at tier 0, strong hold, 2 coin, with what its type's sheet asks: a
    special ability (the first, unless another is chosen), the starting upgrades (the
    first option each, unless `starting` chooses), cohorts and claim map, the upgrade
    boxes of crew creation (`upgrades` marks them; the rest stay free) and a contact."""
    data = crew_type_data(crew_type)
    if data is None and crew_type != CUSTOM:
        raise RuleError(gettext_noop("“%(crew_type)s” is not a crew type."), crew_type=crew_type)
    marked: dict[str, int] = {}
    boxes_free = rules.CREATION_UPGRADE_BOXES
    abilities = []
    if data:
        ability = ability or data["abilities"][0]["key"]
        if ability not in {a["key"] for a in data["abilities"]}:
            raise RuleError(
                gettext_noop("Choose one of the crew type's special abilities."), field="ability"
            )
        abilities = [ability]
        starting = starting or [start["options"][0] for start in data["starting_upgrades"]]
        for start, key in zip(data["starting_upgrades"], starting, strict=True):
            if key not in start["options"]:
                raise RuleError(gettext_noop("Choose one of the starting upgrades."))
            marked[key] = start["boxes"]
        boxes = {
            u["key"]: u["boxes"]
            for u in content.crew_upgrades()
            if u["crew_type"] in (None, crew_type)
        }
        for key in upgrades:
            if key not in boxes:
                raise RuleError(
                    gettext_noop("That is not an upgrade this crew can take."), field="upgrades"
                )
            change = rules.mark_upgrade(marked.get(key, 0), boxes[key], boxes_free, 1)
            marked[key], boxes_free = change.marked, change.boxes_free
        if contact and contact not in {c["name"] for c in data["contacts"]}:
            raise RuleError(
                gettext_noop("Choose one of the crew type's contacts."), field="contact"
            )
    with transaction.atomic():
        if Crew.objects.filter(table=table).exists():
            raise RuleError(gettext_noop("This table already has a crew."))
        crew = Crew.objects.create(
            table=table,
            crew_type=crew_type,
            custom_type=custom_type if data is None else "",
            name=name,
            coin=rules.START_COIN,
            abilities=abilities,
            upgrades=marked,
            boxes_free=boxes_free,
            contact=contact if data else "",
        )
        if data:
            Claim.objects.bulk_create(
                Claim(
                    crew=crew,
                    name=claim["name"],
                    effect=claim["effect"],
                    turf=claim["turf"],
                    lair=claim["lair"],
                    row=row,
                    col=col,
                    held=claim["lair"],  # every crew starts with its lair
                )
                for row, claims in enumerate(data["claims"])
                for col, claim in enumerate(claims)
            )
            for cohort in data["starting_cohorts"]:
                Cohort.objects.create(crew=crew, kind=cohort["kind"], types=[cohort["type"]])
        # A page still showing the founding form (to anyone at the table) has no
        # section to swap: the whole sheet goes, to the GM and the players alike.
        _push(crew, "created")
    return crew


def update_sheet(
    *, crew: Crew, name: str, reputation: str, lair: str, hunting_grounds: str, notes: str
) -> Crew:
    with transaction.atomic():
        Crew.objects.filter(pk=crew.pk).update(
            name=name,
            reputation=reputation,
            lair=lair,
            hunting_grounds=hunting_grounds,
            notes=notes,
        )
        _push(crew, "sheet", "books")
    return crew


def update_settings(
    *, crew: Crew, players_edit_sheet: bool, players_keep_books: bool, xp_track: int
) -> Crew:
    """Who may edit what, and the crew xp track's length (8 by default; some play 10)."""
    with transaction.atomic():
        locked = _locked(crew)
        if locked.xp >= xp_track:
            raise RuleError(
                gettext_noop("The crew has %(xp)s xp marked; the track needs more boxes."),
                xp=locked.xp,
            )
        Crew.objects.filter(pk=crew.pk).update(
            players_edit_sheet=players_edit_sheet,
            players_keep_books=players_keep_books,
            xp_track=xp_track,
        )
        # Permissions change which controls every section shows.
        _push(crew)
    return crew


# --- The books -------------------------------------------------------------------------


def _change_books(crew: Crew, change, *parts: str):
    """Compare-and-set on the crew's `version`: read the books, let the rules compute the
    new values (`change` sets them on the instance and names the fields), and write them
    in one conditional UPDATE that only lands if nobody wrote in between; else read again.

    No lock is held while Python works, so fifty clicks at once queue for microseconds
    each, and the row count says whether this write won.
    """
    for _ in range(CAS_TRIES):
        current = Crew.objects.get(pk=crew.pk)
        result, fields = change(current)
        written = Crew.objects.filter(pk=crew.pk, version=current.version).update(
            version=F("version") + 1, **{field: getattr(current, field) for field in fields}
        )
        if written:
            _push(crew, *parts)
            return result
    raise RuleError(gettext_noop("The crew's books are changing very fast; try again."))


def holds_prison_claim(crew: Crew, name: str) -> bool:
    """Prison claims work by their name on the crew's map (003 Prison claims)."""
    return crew.claims.filter(held=True, name__iexact=name).exists()


def add_rep(*, crew: Crew, amount: int) -> rules.RepChange:
    def change(current: Crew):
        result = rules.add_rep(current.rep, current.turf, amount)
        current.rep = result.rep
        return result, ["rep"]

    return _change_books(crew, change, "books")


def develop(*, crew: Crew) -> rules.Development:
    """Spend a full rep track: strong hold, or (with strong hold) pay coin for a tier."""

    def change(current: Crew):
        result = rules.develop(
            current.tier, current.hold, current.rep, current.turf, current.coin,
            hardcase=holds_prison_claim(current, "Hardcase"),
            patron=ability_rules.patron(current.abilities),
        )  # fmt: skip
        current.tier, current.hold, current.rep, current.coin = (
            result.tier,
            result.hold,
            result.rep,
            result.coin,
        )
        return result, ["tier", "hold", "rep", "coin"]

    return _change_books(crew, change, "books", "cohorts")  # cohort quality follows tier


def add_heat(*, crew: Crew, amount: int) -> rules.HeatChange:
    def change(current: Crew):
        result = rules.add_heat(current.heat, current.wanted, amount)
        current.heat, current.wanted = result.heat, result.wanted
        return result, ["heat", "wanted"]

    return _change_books(crew, change, "books")


def unwind_heat(*, crew: Crew, steps: int) -> rules.HeatChange:
    """Take back heat a roll gave (its complication resisted, or the roll undone),
    wanted levels it rolled into included."""

    def change(current: Crew):
        result = rules.unwind_heat(current.heat, current.wanted, steps)
        current.heat, current.wanted = result.heat, result.wanted
        return result, ["heat", "wanted"]

    return _change_books(crew, change, "books")


def add_coin(*, crew: Crew, amount: int, allow_excess: bool = False) -> rules.CoinChange:
    """Coin by hand stays within the vault; payoff passes `allow_excess` and the excess
    is flagged on the sheet until it is spent or shared."""

    def change(current: Crew):
        limit = current.coin_limit
        if allow_excess:
            result = rules.add_crew_coin(current.coin, amount, limit)
        else:
            total = rules.add_crew_coin_within(current.coin, amount, limit)
            result = rules.CoinChange(coin=total, excess=max(0, total - limit))
        current.coin = result.coin
        return result, ["coin"]

    return _change_books(crew, change, "books")


def share_coin(*, crew: Crew, character: Character, amount: int) -> Character:
    """Coin from the crew's books to one scoundrel (the way to deal with coin beyond the
    vault, or to pay for a PC's extra downtime)."""
    if character.table_id != crew.table_id:
        raise RuleError(gettext_noop("Share coin only with the crew's own scoundrels."))
    if amount < 1:
        raise RuleError(gettext_noop("Share at least 1 coin."))
    with transaction.atomic():
        add_coin(crew=crew, amount=-amount)
        return character_actions.receive_coin(character=character, amount=amount)


def mark_xp(*, crew: Crew, amount: int) -> rules.XpChange:
    def change(current: Crew):
        result = rules.mark_crew_xp(current.xp, amount, current.xp_track)
        current.xp = result.xp
        current.advances += result.advances
        return result, ["xp", "advances"]

    with transaction.atomic():
        result = _change_books(crew, change, "books")
        if result.advances:
            share_advance_profits(crew=crew, advances=result.advances)
    return result


def share_advance_profits(*, crew: Crew, advances: int) -> None:
    """Each crew advance pays every active scoundrel stash = tier + 2."""
    tier = Crew.objects.values_list("tier", flat=True).get(pk=crew.pk)
    profit = rules.advance_stash_gain(tier) * advances
    for character in Character.objects.filter(table_id=crew.table_id, state=Character.State.ACTIVE):
        character_actions.gain_stash(character=character, amount=profit)


def send_to_prison(*, crew: Crew) -> rules.HeatChange:
    """Someone is convicted for the crew's crimes: heat clears, wanted level −1."""

    def change(current: Crew):
        current.heat, wanted = rules.incarcerate(current.heat, current.wanted)
        result = rules.HeatChange(heat=0, wanted=wanted, wanted_gained=wanted - current.wanted)
        current.wanted = wanted
        return result, ["heat", "wanted"]

    return _change_books(crew, change, "books")


def lose_hold(*, crew: Crew) -> score_rules.HoldLoss:
    """Hold drops a step (a weak crew loses a tier); a weak tier-0 crew's lair is threatened."""

    def change(current: Crew):
        result = score_rules.lose_hold(current.hold, current.tier)
        current.hold, current.tier = result.hold, result.tier
        return result, ["hold", "tier"]

    return _change_books(crew, change, "books", "cohorts")


def correct_books(*, crew: Crew, tier: int, hold: str, wanted: int) -> Crew:
    """The GM sets tier, hold and wanted level directly, e.g. for a campaign already under way."""
    rules.check_range(tier, 0, rules.TIER_MAX, gettext_noop("Tier"))
    rules.check_range(wanted, 0, rules.WANTED_MAX, gettext_noop("Wanted level"))
    if hold not in rules.HOLDS:
        raise RuleError(gettext_noop("Hold is weak or strong."))
    with transaction.atomic():
        Crew.objects.filter(pk=crew.pk).update(
            tier=tier, hold=hold, wanted=wanted, version=F("version") + 1
        )
        _push(crew, "books", "cohorts")
    return crew


# --- Advances: special abilities and upgrades ------------------------------------------


def spend_advance_on_upgrades(*, crew: Crew) -> rules.AdvanceSpent:
    def change(current: Crew):
        spent = rules.spend_advance(current.advances, "upgrades", current.boxes_free)
        current.advances, current.boxes_free = spent.advances, spent.boxes_free
        return spent, ["advances", "boxes_free"]

    return _change_books(crew, change, "books", "upgrades")


def take_ability(*, crew: Crew, key: str) -> rules.AdvanceSpent:
    """A special ability costs one crew advance."""

    def change(current: Crew):
        if key not in {a["key"] for a in ability_choices(current)}:
            raise RuleError(gettext_noop("That is not a special ability this crew can take."))
        if key in current.abilities:
            raise RuleError(gettext_noop("The crew already has that ability."))
        spent = rules.spend_advance(current.advances, "ability", current.boxes_free)
        current.advances = spent.advances
        current.abilities = [*current.abilities, key]
        return spent, ["advances", "abilities"]

    return _change_books(crew, change, "books", "abilities")


def drop_ability(*, crew: Crew, key: str) -> None:
    """Undo a mistaken pick: the advance comes back."""

    def change(current: Crew):
        if key not in current.abilities:
            raise RuleError(gettext_noop("The crew does not have that ability."))
        current.abilities = [k for k in current.abilities if k != key]
        current.advances += 1
        return None, ["advances", "abilities"]

    return _change_books(crew, change, "books", "abilities")


def mark_upgrade(*, crew: Crew, key: str, by: int) -> rules.UpgradeChange:
    upgrade = next((u for u in upgrade_choices(crew) if u["key"] == key), None)
    if upgrade is None:
        raise RuleError(gettext_noop("That is not an upgrade this crew can take."))

    def change(current: Crew):
        result = rules.mark_upgrade(
            current.upgrades.get(key, 0), upgrade["boxes"], current.boxes_free, by
        )
        current.upgrades = {**current.upgrades, key: result.marked}
        current.boxes_free = result.boxes_free
        return result, ["upgrades", "boxes_free"]

    return _change_books(crew, change, "books", "upgrades", "cohorts")


# --- Claims ----------------------------------------------------------------------------


def set_claim(*, claim: Claim, held: bool, override: bool = False) -> Claim:
    """Seize or lose a claim. Held turf shortens the rep track (rules.rep_track).

    A claim on the map is seized next to one the crew holds (a path joins them; the lair
    is held from the start); the GM may `override` that, as the fiction can allow."""
    if claim.lair:
        raise RuleError(
            gettext_noop("The lair is where the crew lives; it is not seized or lost here.")
        )
    with transaction.atomic():
        if held and not claim.held and claim.row is not None and not override:
            data = crew_type_data(claim.crew.crew_type)
            cells = claim.crew.claims.filter(held=True, row__isnull=False).values_list("row", "col")
            paths = data["paths"] if data else []
            if data and not rules.claim_reachable((claim.row, claim.col), cells, paths):
                raise RuleError(
                    gettext_noop(
                        "%(claim)s is not next to a claim the crew holds or its lair; "
                        "the GM may seize it anyway."
                    ),
                    field="override",
                    claim=claim.shown_name,
                )
        if held and claim.turf:
            crew = _locked(claim.crew)
            if crew.claims.filter(held=True, turf=True).count() >= rules.TURF_MAX:
                raise RuleError(
                    gettext_noop("The rep track marks at most %(max)s turf."), max=rules.TURF_MAX
                )
        Claim.objects.filter(pk=claim.pk).update(held=held)
        # Turf changes the rep track: a rep change computed before this must retry.
        Crew.objects.filter(pk=claim.crew_id).update(version=F("version") + 1)
        claim.held = held
        _push(claim.crew, "books", "claims")
    return claim


def add_claim(*, crew: Crew, name: str, effect: str, turf: bool) -> Claim:
    """A claim off the map: for custom crews, prison claims or deals with a faction."""
    with transaction.atomic():
        claim = Claim.objects.create(crew=crew, name=name, effect=effect, turf=turf)
        _push(crew, "claims")
    return claim


def prison_claim(key: str) -> dict:
    """One of the prison claims by its key, or a refusal beside the menu."""
    chosen = next((c for c in prison_claim_choices() if c["key"] == key), None)
    if chosen is None:
        raise RuleError(
            gettext_noop("Choose the prison claim the crew takes."), field="prison_claim"
        )
    return chosen


def take_prison_claim(*, crew: Crew, key: str) -> Claim:
    """A prison claim the incarceration roll earned, held from now on: it works by its
    name (`holds_prison_claim`), as the map's claims do."""
    chosen = prison_claim(key)
    with transaction.atomic():
        claim = Claim.objects.create(
            crew=crew, name=chosen["name"], effect=chosen["effect"], turf=False, held=True
        )
        _push(crew, "books", "claims")
    return claim


def remove_claim(*, claim: Claim) -> None:
    """Only claims added by hand can go; the map's squares stay (they are lost, not gone)."""
    if claim.row is not None:
        raise RuleError(
            gettext_noop("Claims on the map cannot be removed; mark them lost instead.")
        )
    with transaction.atomic():
        table_id = claim.crew.table_id
        claim.delete()
        _push(table_id, "books", "claims")


# --- Cohorts ---------------------------------------------------------------------------


def recruit_cohort(
    *,
    crew: Crew,
    name: str,
    kind: str,
    types: list[str],
    edges: list[str],
    flaws: list[str],
    gained_in_play: bool = False,
) -> Cohort:
    """A new cohort costs two upgrade boxes per type, unless the GM grants it in play."""
    rules.check_edges_and_flaws(len(edges), len(flaws))
    cost = rules.cohort_cost(len(types))
    with transaction.atomic():
        locked = _locked(crew)
        if not gained_in_play:
            if locked.boxes_free < cost:
                raise RuleError(
                    ngettext(
                        "A cohort with %(types)s type costs %(cost)s upgrade boxes; "
                        "the crew has %(free)s free.",
                        "A cohort with %(types)s types costs %(cost)s upgrade boxes; "
                        "the crew has %(free)s free.",
                        len(types),
                    ),
                    types=len(types),
                    cost=cost,
                    free=locked.boxes_free,
                )
            Crew.objects.filter(pk=crew.pk).update(
                boxes_free=F("boxes_free") - cost, version=F("version") + 1
            )
        cohort = Cohort.objects.create(
            crew=crew, name=name, kind=kind, types=types, edges=edges, flaws=flaws
        )
        _push(crew, "books", "cohorts")
    return cohort


def set_cohort_harm(*, cohort: Cohort, harm: int) -> Cohort:
    rules.cohort_harm(harm)
    with transaction.atomic():
        Cohort.objects.filter(pk=cohort.pk).update(harm=harm)
        cohort.harm = harm
        _push(cohort.crew.table_id, "cohorts")
    return cohort


def heal_cohorts(*, crew: Crew, tended: set[int]) -> None:
    """The end of a downtime heals every harmed cohort a level, two for those a PC
    spent an activity on (`tended`, by pk)."""
    with transaction.atomic():
        for cohort in Cohort.objects.select_for_update().filter(crew=crew, harm__gt=0):
            harm = rules.heal_cohort(cohort.harm, cohort.pk in tended)
            Cohort.objects.filter(pk=cohort.pk).update(harm=harm)
        _push(crew, "cohorts")


def dismiss_cohort(*, cohort: Cohort) -> None:
    with transaction.atomic():
        table_id = cohort.crew.table_id
        cohort.delete()
        _push(table_id, "cohorts")


# --- Factions --------------------------------------------------------------------------


def _check_faction(tier: int, hold: str, status: int) -> None:
    rules.check_range(tier, 0, rules.FACTION_TIER_MAX, gettext_noop("Tier"))
    rules.check_range(status, rules.STATUS_MIN, rules.STATUS_MAX, gettext_noop("Status"))
    if hold not in rules.HOLDS:
        raise RuleError(gettext_noop("Hold is weak or strong."))


def create_faction(
    *,
    table: Table,
    name: str,
    tier: int,
    hold: str,
    status: int,
    notes: str = "",
    hidden: bool = False,
    notes_hidden: bool = False,
) -> Faction:
    _check_faction(tier, hold, status)
    with transaction.atomic():
        faction = Faction.objects.create(
            table=table,
            name=name,
            tier=tier,
            hold=hold,
            status=status,
            notes=notes,
            hidden=hidden,
            notes_hidden=notes_hidden,
        )
        _push_factions(table.pk, players_see=not hidden)
    return faction


def update_faction(
    *,
    faction: Faction,
    name: str,
    tier: int,
    hold: str,
    status: int,
    notes: str,
    hidden: bool,
    notes_hidden: bool,
) -> Faction:
    """Hiding a faction hides its goal clocks too (their names would give it away);
    revealing it shows them again."""
    _check_faction(tier, hold, status)
    with transaction.atomic():
        # What players are shown of the ladder: if the change leaves it as it was (hidden
        # notes edited, a hidden faction renamed), they are sent nothing at all.
        seen = crew_queries.visible_factions(faction.table_id, is_gm=False)
        Faction.objects.filter(pk=faction.pk).update(
            name=name,
            tier=tier,
            hold=hold,
            status=status,
            notes=notes,
            hidden=hidden,
            notes_hidden=notes_hidden,
        )
        _set_goal_visibility(faction, hidden)
        faction.refresh_from_db()
        players_see = crew_queries.visible_factions(faction.table_id, is_gm=False) != seen
        _push_factions(faction.table_id, players_see=players_see)
    return faction


def _set_goal_visibility(faction: Faction, hidden: bool) -> None:
    wanted = Clock.Visibility.GM if hidden else Clock.Visibility.EVERYONE
    clocks = Clock.objects.filter(faction_link__faction=faction).exclude(visibility=wanted)
    for clock in clocks:
        was_hidden = clock.hidden
        clock.visibility = wanted
        clock.save(update_fields=["visibility"])
        live.push_clock(clock, was_hidden=was_hidden)


def shift_status(*, faction: Faction, delta: int) -> Faction:
    """Operations move status by −2..+1; it stops at war and at allies."""
    return _write_status(faction, lambda status: rules.set_status(status, delta))


def set_status(*, faction: Faction, status: int) -> Faction:
    """The GM's call on the status track: the faction stands where it is put (the
    step's choices are the track's, war to allies)."""
    return _write_status(faction, lambda _was: status)


def _write_status(faction: Faction, moved: Callable[[int], int]) -> Faction:
    with transaction.atomic():
        locked = Faction.objects.select_for_update().get(pk=faction.pk)
        locked.status = moved(locked.status)
        locked.save(update_fields=["status"])
        faction_shifted.send(sender=Faction, faction=locked)
        _push_factions(faction.table_id, players_see=not locked.hidden)
    return locked


def delete_faction(*, faction: Faction) -> None:
    with transaction.atomic():
        table_id = faction.table_id
        for link in faction.goal_links.select_related("clock"):
            clock_id, hidden = link.clock.pk, link.clock.hidden
            link.clock.delete()
            live.push_clock_removed(table_id, clock_id, hidden=hidden)
        faction.delete()
        _push_factions(table_id, players_see=not faction.hidden)


def add_goal_clock(*, faction: Faction, name: str, segments: int) -> Clock:
    """A faction clock on the table's clock list; hidden while the faction is."""
    validate_clock_size(segments)
    with transaction.atomic():
        clock = Clock.objects.create(
            table_id=faction.table_id,
            name=name,
            segments=segments,
            kind=Clock.Kind.FACTION,
            visibility=Clock.Visibility.GM if faction.hidden else Clock.Visibility.EVERYONE,
        )
        FactionClock.objects.create(faction=faction, clock=clock)
        live.push_clock(clock, created=True)
        crew_live.push_factions(faction.table_id, players=not faction.hidden)
    return clock


# --- The shared screen -----------------------------------------------------------------


def new_screen_link(*, table: Table) -> Screen:
    """A fresh link (the old one stops working at once)."""
    with transaction.atomic():
        screen, _ = Screen.objects.update_or_create(
            table=table, defaults={"token": new_screen_token(), "active": True}
        )
        live.kick_screen(screen.pk)
    return screen


def revoke_screen_link(*, table: Table) -> None:
    with transaction.atomic():
        screen = Screen.objects.filter(table=table).first()
        if screen is not None:
            Screen.objects.filter(pk=screen.pk).update(active=False)
            live.kick_screen(screen.pk)
