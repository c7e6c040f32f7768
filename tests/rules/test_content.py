"""The game content data in blades/content: pure data checks, no Django, no database."""

import pytest

from blades import content

PLAYBOOKS = {p["key"]: p for p in content.playbooks()}
CREWS = {c["key"]: c for c in content.crew_types()}

STARTING_DOTS = [
    ("cutter", {"skirmish": 2, "command": 1}),
    ("hound", {"hunt": 2, "survey": 1}),
    ("leech", {"tinker": 2, "wreck": 1}),
    ("lurk", {"prowl": 2, "finesse": 1}),
    ("slide", {"sway": 2, "consort": 1}),
    ("spider", {"consort": 2, "study": 1}),
    ("whisper", {"attune": 2, "study": 1}),
]

DEFAULT_ABILITY = {
    "cutter": "Battleborn",
    "hound": "Sharpshooter",
    "leech": "Alchemist",
    "lurk": "Infiltrator",
    "slide": "Rook's Gambit",
    "spider": "Foresight",
    "whisper": "Compel",
}

SPECIAL_ARMOR = {
    "Battleborn",
    "Focused",
    "Fortitude",
    "Shadow",
    "Subterfuge",
    "Mastermind",
    "Warded",
}

CREW_DEFAULT_ABILITY = {
    "assassins": "Deadly",
    "bravos": "Dangerous",
    "cult": "Chosen",
    "hawkers": "Silver Tongues",
    "shadows": "Everyone Steals",
    "smugglers": "Like Part of the Family",
}


def assert_unique_keys(rows):
    keys = [row["key"] for row in rows]
    assert len(keys) == len(set(keys)), keys


# ------------------------------------------------------------------ loaders


def test_loaders_return_plain_cached_data():
    assert content.playbooks() is content.playbooks()
    assert isinstance(content.cohort_types(), dict)
    assert isinstance(content.prison_claims(), dict)


def test_action_keys():
    assert len(content.ACTION_KEYS) == 12
    assert len(set(content.ACTION_KEYS)) == 12


# ------------------------------------------------------------------ playbooks


def test_seven_standard_playbooks():
    assert [p["name"] for p in content.playbooks()] == [
        "Cutter",
        "Hound",
        "Leech",
        "Lurk",
        "Slide",
        "Spider",
        "Whisper",
    ]
    assert_unique_keys(content.playbooks())


@pytest.mark.parametrize(("key", "dots"), STARTING_DOTS)
def test_starting_dots(key, dots):
    playbook = PLAYBOOKS[key]
    assert playbook["dots"] == dots
    assert sum(playbook["dots"].values()) == 3
    assert set(playbook["dots"]) <= set(content.ACTION_KEYS)
    assert all(isinstance(n, int) and 1 <= n <= 2 for n in playbook["dots"].values())


@pytest.mark.parametrize("key", sorted(PLAYBOOKS))
def test_playbook_shape(key):
    playbook = PLAYBOOKS[key]
    assert playbook["tagline"]
    assert playbook["xp_trigger"].startswith("You addressed a challenge with ")
    abilities = playbook["abilities"]
    assert abilities[0]["name"] == DEFAULT_ABILITY[key]
    assert abilities[-1]["name"] == "Veteran"
    assert 8 <= len(abilities) <= 9
    assert_unique_keys(abilities)
    for ability in abilities:
        assert ability["description"]
        assert isinstance(ability["special_armor"], bool)
        assert ability["special_armor"] == (ability["name"] in SPECIAL_ARMOR)
    assert len(playbook["friends"]) == 5
    assert all(f["name"] and f["role"] for f in playbook["friends"])
    assert playbook["items"]
    for item in playbook["items"]:
        assert isinstance(item["load"], int) and item["load"] >= 0
        assert isinstance(item["fine"], bool)
        assert item["fine"] == item["name"].startswith("Fine ")


def test_every_special_armor_ability_is_on_some_playbook():
    flagged = {a["name"] for p in content.playbooks() for a in p["abilities"] if a["special_armor"]}
    assert flagged == SPECIAL_ARMOR


def test_cutter_has_mule():
    mules = [
        (p["key"], a["name"]) for p in content.playbooks() for a in p["abilities"] if a.get("mule")
    ]
    assert mules == [("cutter", "Mule")]


# ------------------------------------------------------------------ lists


@pytest.mark.parametrize(
    ("loader", "names"),
    [
        (
            content.heritages,
            ["Akoros", "The Dagger Isles", "Iruvia", "Severos", "Skovlan", "Tycheros"],
        ),
        (
            content.backgrounds,
            ["Academic", "Labor", "Law", "Trade", "Military", "Noble", "Underworld"],
        ),
        (
            content.vices,
            ["Faith", "Gambling", "Luxury", "Obligation", "Pleasure", "Stupor", "Weird"],
        ),
        (
            content.traumas,
            [
                "Cold",
                "Haunted",
                "Obsessed",
                "Paranoid",
                "Reckless",
                "Soft",
                "Unstable",
                "Vicious",
            ],
        ),
    ],
)
def test_simple_lists(loader, names):
    rows = loader()
    assert [row["name"] for row in rows] == names
    assert_unique_keys(rows)
    assert all(row["description"] for row in rows)


# ------------------------------------------------------------------ items


def test_standard_items():
    rows = content.items()
    assert_unique_keys(rows)
    assert len(rows) == 17  # the 16 sheet items plus the Spiritbane Charm
    for row in rows:
        assert isinstance(row["load"], int) and not isinstance(row["load"], bool)
        assert row["load"] >= 0
    by_key = {row["key"]: row for row in rows}
    assert by_key["armor"]["load"] == 2 and by_key["armor"]["armor"] == "armor"
    assert by_key["heavy"]["load"] == 3 and by_key["heavy"]["armor"] == "heavy"
    assert [row["key"] for row in rows if "armor" in row] == ["armor", "heavy"]
    assert by_key["climbing_gear"]["load"] == 2
    assert by_key["spiritbane_charm"]["load"] == 0


def test_quality_upgrades_point_at_real_items():
    item_keys = {row["key"] for row in content.items()}
    upgrade_keys = {u["key"] for u in content.crew_upgrades() if u["group"] == "quality"}
    for row in content.items():
        assert row["quality_upgrade"] is None or row["quality_upgrade"] in upgrade_keys
    for upgrade in content.crew_upgrades():
        assert set(upgrade.get("items", [])) <= item_keys


# ------------------------------------------------------------------ custom playbook abilities


def test_custom_abilities():
    rows = content.custom_abilities()
    # Rule text 000 lists 32 abilities under "Special abilities" (the briefs say 29).
    assert len(rows) == 32
    assert_unique_keys(rows)
    assert all(row["text"] for row in rows)
    flagged = {row["name"] for row in rows if row["special_armor"]}
    assert flagged == SPECIAL_ARMOR
    assert [row["key"] for row in rows if row.get("mule")] == ["mule"]


# ------------------------------------------------------------------ crews


def test_six_crew_types():
    assert [c["name"] for c in content.crew_types()] == [
        "Assassins",
        "Bravos",
        "Cult",
        "Hawkers",
        "Shadows",
        "Smugglers",
    ]
    assert_unique_keys(content.crew_types())


@pytest.mark.parametrize("key", sorted(CREWS))
def test_crew_shape(key):
    crew = CREWS[key]
    assert crew["tagline"] and crew["xp_trigger"]
    assert len(crew["hunting_grounds"]["options"]) == 4
    abilities = crew["abilities"]
    assert abilities[0]["name"] == CREW_DEFAULT_ABILITY[key]
    assert abilities[-1]["name"] == "Veteran"
    assert len(abilities) == 8
    assert_unique_keys(abilities)
    assert all(a["description"] for a in abilities)
    assert len(crew["contacts"]) == 6
    upgrade_keys = {u["key"] for u in content.crew_upgrades() if u["crew_type"] is None}
    for start in crew["starting_upgrades"]:
        assert start["options"] and set(start["options"]) <= upgrade_keys
    gang_keys = {g["key"] for g in content.cohort_types()["gang_types"]}
    for cohort in crew["starting_cohorts"]:
        assert cohort["type"] in gang_keys


def check_map(cells, paths):
    rows, cols = len(cells), len(cells[0])
    assert all(len(row) == cols for row in cells)
    lairs = [(r, c) for r in range(rows) for c in range(cols) if cells[r][c]["lair"]]
    assert len(lairs) == 1
    r, c = lairs[0]
    assert not cells[r][c]["turf"]
    for row in cells:
        for cell in row:
            assert cell["name"]
            assert isinstance(cell["turf"], bool) and isinstance(cell["lair"], bool)
            assert cell["lair"] or cell["effect"]
    seen = set()
    for a, b in paths:
        for r, c in (a, b):
            assert 0 <= r < rows and 0 <= c < cols, (a, b)
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1, (a, b)
        pair = frozenset((tuple(a), tuple(b)))
        assert pair not in seen, (a, b)
        seen.add(pair)
    return lairs[0], seen


@pytest.mark.parametrize("key", sorted(CREWS))
def test_claim_map(key):
    crew = CREWS[key]
    lair, links = check_map(crew["claims"], crew["paths"])
    assert (len(crew["claims"]), len(crew["claims"][0])) == (3, 5)
    assert lair == (1, 2)
    # The lair is linked to at least one neighbour, so claims can be reached from it.
    assert any(lair in pair for pair in links)


@pytest.mark.parametrize(
    ("key", "missing"),
    [
        ("assassins", 6),
        ("bravos", 3),
        ("cult", 5),
        ("hawkers", 6),
        ("shadows", 4),
        ("smugglers", 5),
    ],
)
def test_claim_paths_not_drawn(key, missing):
    # A 3x5 grid has 22 neighbouring pairs; SRD_FACTS lists the ones without a link.
    assert len(CREWS[key]["paths"]) == 22 - missing


def test_crew_upgrades():
    rows = content.crew_upgrades()
    pairs = [(u["crew_type"], u["key"]) for u in rows]
    assert len(pairs) == len(set(pairs))
    boxes = {u["key"]: u["boxes"] for u in rows if u["crew_type"] is None}
    assert boxes["mastery"] == 4
    assert boxes["carriage"] == boxes["boat"] == boxes["secure"] == boxes["vault"] == 2
    assert boxes["hidden"] == boxes["quarters"] == boxes["workshop"] == 1
    assert boxes["new_cohort"] == boxes["add_type"] == 2
    for crew in CREWS:
        specific = [u for u in rows if u["crew_type"] == crew]
        assert len(specific) == 5
        assert sum(u["group"] == "rigging" for u in specific) == 1
        assert sorted(u["boxes"] for u in specific) == [1, 1, 1, 1, 3]
    assert all(isinstance(u["boxes"], int) and u["boxes"] > 0 for u in rows)


def test_cohort_types():
    data = content.cohort_types()
    assert [g["name"] for g in data["gang_types"]] == [
        "Adepts",
        "Rooks",
        "Rovers",
        "Skulks",
        "Thugs",
    ]
    assert [h["name"] for h in data["harm"]] == ["Weakened", "Impaired", "Broken", "Dead"]
    assert [e["name"] for e in data["edges"]] == ["Fearsome", "Independent", "Loyal", "Tenacious"]
    assert [f["name"] for f in data["flaws"]] == ["Principled", "Savage", "Unreliable", "Wild"]


def test_prison_claims():
    data = content.prison_claims()
    assert_unique_keys(data["claims"])
    assert len(data["claims"]) == 6
    lair, links = check_map(data["map"], data["paths"])
    assert lair == (1, 1)
    names = {c["name"] for c in data["claims"]}
    for row in data["map"]:
        for cell in row:
            assert cell["lair"] or cell["name"] in names
    # 3x4 grid: 17 neighbouring pairs, all drawn except row 1 columns 3-4.
    assert len(links) == 16
    assert frozenset(((0, 2), (0, 3))) not in links
