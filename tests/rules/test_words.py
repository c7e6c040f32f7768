"""Stored words: kept as the English message and its params, read in the language of
whoever reads them, and turned into JSON and back without losing which word is which."""

import json

import pytest

from blades.rules.words import (
    Decoder,
    Encoder,
    Joined,
    Term,
    Words,
    _,
    from_data,
    ngettext,
    to_data,
)

TAKES = _("%(who)s takes %(n)s stress")


def test_words_are_read_in_english_until_a_catalog_is_installed():
    assert str(Words(TAKES, who="Nyx", n=2)) == "Nyx takes 2 stress"


def test_the_same_words_read_in_the_installed_language(spanish):
    line = Joined(Term(" or "), [Words(TAKES, who="Nyx", n=2), Term("Harm")])
    assert str(line) == "Nyx recibe 2 de estrés o Daño"


def test_a_players_word_stays_as_typed(spanish):
    assert str(Words(TAKES, who="Harm", n=1)) == "Harm recibe 1 de estrés"


def test_a_plural_reads_its_count():
    def boxes(n):
        return str(Words(ngettext("%(n)s box", "%(n)s boxes", n), n=n))

    assert (boxes(1), boxes(3)) == ("1 box", "3 boxes")


LINES = [
    "Typed by a player",
    7,
    Term("Stress"),
    Words(_("Relief")),
    Words(TAKES, who="Nyx", n=2),
    Words(ngettext("%(n)s tick", "%(n)s ticks", 2), n=2),
    Words(_("%(line)s (undone by the GM)"), line=Words(TAKES, who=Term("Stress"), n=1)),
    Joined("; ", [Words(TAKES, who="Nyx", n=2), "lockpicks snap"]),
    Joined(Term(" or "), []),
]


@pytest.mark.parametrize("line", LINES, ids=repr)
def test_words_go_to_json_and_back_unchanged(line):
    stored = json.dumps(line, cls=Encoder)
    back = json.loads(stored, cls=Decoder)
    assert (back, type(back), str(back)) == (line, type(line), str(line))
    assert from_data(to_data(line)) == line


def test_a_term_is_stored_as_a_term_not_as_the_players_words():
    assert json.loads(json.dumps(Term("Stress"), cls=Encoder)) == {"term": "Stress"}


HOSTILE = [
    None,
    True,
    1.5,
    [],
    {},
    {"term": 3},
    {"words": "%(a)d", "with": {"a": "three"}},
    {"words": "%(a)999999999s", "with": {"a": "x"}},
    {"words": "%s", "with": {"a": "x"}},
    {"words": ["%(n)s", "%(n)s", "2"], "with": {"n": 2}},
    {"words": ["one", "two", True]},
    {"words": "x", "with": {"a": None}},
    {"words": "x", "with": ["a"]},
    {"words": "x", "extra": 1},
    {"join": "; ", "parts": "ab"},
    {"join": None, "parts": []},
]


@pytest.mark.parametrize("data", HOSTILE, ids=repr)
def test_anything_else_in_a_file_is_refused(data):
    with pytest.raises(ValueError):
        from_data(data)


def test_a_message_without_params_is_read_as_written():
    assert str(from_data({"words": "100% sure"})) == "100% sure"
    assert str(from_data({"words": "100%% sure", "with": {"a": 1}})) == "100% sure"


def test_only_words_can_be_stored():
    with pytest.raises(TypeError):
        to_data(1.5)
