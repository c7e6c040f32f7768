"""Every change to the crew and the factions: one transaction each, pushed on commit.

Counters are changed by re-reading the crew inside the transaction (`_locked`): SQLite's
IMMEDIATE transactions and PostgreSQL's row lock both make the next writer wait, so the
rules always see the latest books and concurrent clicks never pass a track's limits.
Refusals raise `RuleError` with a message for the player; nothing changes then.
The phase steps (payoff, heat, entanglements, downtime) call these same functions.
"""

from django.db import transaction

from blades.rules import crew as rules
from blades.rules.character import RuleError
from blades.rules.clocks import validate_clock_size
from sessions import live
from sessions.models import Clock, Table

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
from .sheet import ability_choices, upgrade_choices

ALL_PARTS = ("books", "sheet", "abilities", "upgrades", "claims", "cohorts")


def _locked(crew: Crew) -> Crew:
    return Crew.objects.select_for_update().get(pk=crew.pk)


def _push(crew_or_table_id: Crew | int, *parts: str) -> None:
    table_id = crew_or_table_id if isinstance(crew_or_table_id, int) else crew_or_table_id.table_id
    live.push_crew(table_id, parts=parts or ALL_PARTS)


def _push_factions(table_id: int) -> None:
    live.push_factions(table_id)


# --- The crew and its sheet ------------------------------------------------------------


def create_crew(*, table: Table, crew_type: str, name: str, custom_type: str = "") -> Crew:
    """A new crew at tier 0, strong hold, with its type's defaults: the first special
    ability, the starting upgrades (first option each), cohorts and claim map, and the
    two free upgrade boxes of crew creation."""
    data = crew_type_data(crew_type)
    if data is None and crew_type != CUSTOM:
        raise RuleError(f"“{crew_type}” is not a crew type.")
    with transaction.atomic():
        if Crew.objects.filter(table=table).exists():
            raise RuleError("This table already has a crew.")
        crew = Crew.objects.create(
            table=table,
            crew_type=crew_type,
            custom_type=custom_type if data is None else "",
            name=name,
            abilities=[data["abilities"][0]["key"]] if data else [],
            upgrades={u["options"][0]: u["boxes"] for u in data["starting_upgrades"]}
            if data
            else {},
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
        _push(crew)
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
            raise RuleError(f"The crew has {locked.xp} xp marked; the track needs more boxes.")
        Crew.objects.filter(pk=crew.pk).update(
            players_edit_sheet=players_edit_sheet,
            players_keep_books=players_keep_books,
            xp_track=xp_track,
        )
        # Permissions change which controls every section shows.
        _push(crew)
    return crew


# --- The books -------------------------------------------------------------------------


def add_rep(*, crew: Crew, amount: int) -> Crew:
    with transaction.atomic():
        locked = _locked(crew)
        turf = rules.turf_count(locked.claims.filter(held=True, turf=True).count())
        locked.rep = rules.add_rep(locked.rep, turf, amount).rep
        locked.save(update_fields=["rep"])
        _push(crew, "books")
    return locked


def develop(*, crew: Crew) -> rules.Development:
    """Spend a full rep track: strong hold, or (with strong hold) pay coin for a tier."""
    with transaction.atomic():
        locked = _locked(crew)
        turf = rules.turf_count(locked.claims.filter(held=True, turf=True).count())
        result = rules.develop(locked.tier, locked.hold, locked.rep, turf, locked.coin)
        locked.tier, locked.hold, locked.rep, locked.coin = (
            result.tier,
            result.hold,
            result.rep,
            result.coin,
        )
        locked.save(update_fields=["tier", "hold", "rep", "coin"])
        _push(crew, "books", "cohorts")  # cohort quality follows tier
    return result


def add_heat(*, crew: Crew, amount: int) -> rules.HeatChange:
    with transaction.atomic():
        locked = _locked(crew)
        change = rules.add_heat(locked.heat, locked.wanted, amount)
        locked.heat, locked.wanted = change.heat, change.wanted
        locked.save(update_fields=["heat", "wanted"])
        _push(crew, "books")
    return change


def add_coin(*, crew: Crew, amount: int, allow_excess: bool = False) -> rules.CoinChange:
    """Coin by hand stays within the vault; payoff passes `allow_excess` and the excess
    is flagged on the sheet until it is spent or shared."""
    with transaction.atomic():
        locked = _locked(crew)
        limit = locked.coin_limit
        if allow_excess:
            change = rules.add_crew_coin(locked.coin, amount, limit)
        else:
            total = rules.add_crew_coin_within(locked.coin, amount, limit)
            change = rules.CoinChange(coin=total, excess=max(0, total - limit))
        locked.coin = change.coin
        locked.save(update_fields=["coin"])
        _push(crew, "books")
    return change


def mark_xp(*, crew: Crew, amount: int) -> Crew:
    with transaction.atomic():
        locked = _locked(crew)
        change = rules.mark_crew_xp(locked.xp, amount, locked.xp_track)
        locked.xp = change.xp
        locked.advances += change.advances
        locked.save(update_fields=["xp", "advances"])
        _push(crew, "books")
    return locked


def correct_books(*, crew: Crew, tier: int, hold: str, wanted: int) -> Crew:
    """The GM sets tier, hold and wanted level directly, e.g. for a campaign already under way."""
    rules.check_range(tier, 0, rules.TIER_MAX, "Tier")
    rules.check_range(wanted, 0, rules.WANTED_MAX, "Wanted level")
    if hold not in rules.HOLDS:
        raise RuleError("Hold is weak or strong.")
    with transaction.atomic():
        Crew.objects.filter(pk=crew.pk).update(tier=tier, hold=hold, wanted=wanted)
        _push(crew, "books", "cohorts")
    return crew


# --- Advances: special abilities and upgrades ------------------------------------------


def spend_advance_on_upgrades(*, crew: Crew) -> Crew:
    with transaction.atomic():
        locked = _locked(crew)
        spent = rules.spend_advance(locked.advances, "upgrades", locked.boxes_free)
        locked.advances, locked.boxes_free = spent.advances, spent.boxes_free
        locked.save(update_fields=["advances", "boxes_free"])
        _push(crew, "books", "upgrades")
    return locked


def take_ability(*, crew: Crew, key: str) -> Crew:
    """A special ability costs one crew advance."""
    with transaction.atomic():
        locked = _locked(crew)
        if key not in {a["key"] for a in ability_choices(locked)}:
            raise RuleError("That is not a special ability this crew can take.")
        if key in locked.abilities:
            raise RuleError("The crew already has that ability.")
        spent = rules.spend_advance(locked.advances, "ability", locked.boxes_free)
        locked.advances = spent.advances
        locked.abilities = [*locked.abilities, key]
        locked.save(update_fields=["advances", "abilities"])
        _push(crew, "books", "abilities")
    return locked


def drop_ability(*, crew: Crew, key: str) -> Crew:
    """Undo a mistaken pick: the advance comes back."""
    with transaction.atomic():
        locked = _locked(crew)
        if key not in locked.abilities:
            raise RuleError("The crew does not have that ability.")
        locked.abilities = [k for k in locked.abilities if k != key]
        locked.advances += 1
        locked.save(update_fields=["advances", "abilities"])
        _push(crew, "books", "abilities")
    return locked


def mark_upgrade(*, crew: Crew, key: str, by: int) -> Crew:
    upgrade = next((u for u in upgrade_choices(crew) if u["key"] == key), None)
    if upgrade is None:
        raise RuleError("That is not an upgrade this crew can take.")
    with transaction.atomic():
        locked = _locked(crew)
        change = rules.mark_upgrade(
            locked.upgrades.get(key, 0), upgrade["boxes"], locked.boxes_free, by
        )
        locked.upgrades = {**locked.upgrades, key: change.marked}
        locked.boxes_free = change.boxes_free
        locked.save(update_fields=["upgrades", "boxes_free"])
        _push(crew, "books", "upgrades", "cohorts")
    return locked


# --- Claims ----------------------------------------------------------------------------


def set_claim(*, claim: Claim, held: bool) -> Claim:
    """Seize or lose a claim. Held turf shortens the rep track (rules.rep_track)."""
    with transaction.atomic():
        if held and claim.turf:
            crew = _locked(claim.crew)
            if crew.claims.filter(held=True, turf=True).count() >= rules.TURF_MAX:
                raise RuleError(f"The rep track marks at most {rules.TURF_MAX} turf.")
        Claim.objects.filter(pk=claim.pk).update(held=held)
        claim.held = held
        _push(claim.crew, "books", "claims")
    return claim


def add_claim(*, crew: Crew, name: str, effect: str, turf: bool) -> Claim:
    """A claim off the map: for custom crews, prison claims or deals with a faction."""
    with transaction.atomic():
        claim = Claim.objects.create(crew=crew, name=name, effect=effect, turf=turf)
        _push(crew, "claims")
    return claim


def remove_claim(*, claim: Claim) -> None:
    """Only claims added by hand can go; the map's squares stay (they are lost, not gone)."""
    if claim.row is not None:
        raise RuleError("Claims on the map cannot be removed; mark them lost instead.")
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
                    f"A cohort with {len(types)} type(s) costs {cost} upgrade boxes; "
                    f"the crew has {locked.boxes_free} free."
                )
            locked.boxes_free -= cost
            locked.save(update_fields=["boxes_free"])
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


def dismiss_cohort(*, cohort: Cohort) -> None:
    with transaction.atomic():
        table_id = cohort.crew.table_id
        cohort.delete()
        _push(table_id, "cohorts")


# --- Factions --------------------------------------------------------------------------


def _check_faction(tier: int, hold: str, status: int) -> None:
    rules.check_range(tier, 0, rules.FACTION_TIER_MAX, "Tier")
    rules.check_range(status, rules.STATUS_MIN, rules.STATUS_MAX, "Status")
    if hold not in rules.HOLDS:
        raise RuleError("Hold is weak or strong.")


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
        _push_factions(table.pk)
        _push(table.pk, "books")  # a faction at war changes the crew's hold
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
        _push_factions(faction.table_id)
        _push(faction.table_id, "books")
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
    with transaction.atomic():
        locked = Faction.objects.select_for_update().get(pk=faction.pk)
        locked.status = rules.set_status(locked.status, delta)
        locked.save(update_fields=["status"])
        _push_factions(faction.table_id)
        _push(faction.table_id, "books")
    return locked


def delete_faction(*, faction: Faction) -> None:
    with transaction.atomic():
        table_id = faction.table_id
        for link in faction.goal_links.select_related("clock"):
            clock_id, hidden = link.clock.pk, link.clock.hidden
            link.clock.delete()
            live.push_clock_removed(table_id, clock_id, hidden=hidden)
        faction.delete()
        _push_factions(table_id)
        _push(table_id, "books")


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
        _push_factions(faction.table_id)
    return clock


# --- The shared screen -----------------------------------------------------------------


def new_screen_link(*, table: Table) -> Screen:
    """A fresh link (the old one stops working at once)."""
    with transaction.atomic():
        screen, _ = Screen.objects.update_or_create(
            table=table, defaults={"token": new_screen_token(), "active": True}
        )
    return screen


def revoke_screen_link(*, table: Table) -> None:
    Screen.objects.filter(table=table).update(active=False)
