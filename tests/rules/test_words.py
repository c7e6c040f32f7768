"""Stored words: kept as the English message and its params, read in the language of
whoever reads them, and turned into JSON and back without losing which word is which."""

import json

import pytest

from blades.rules.words import (
    Decoder,
    Encoder,
    Joined,
    Named,
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


def test_a_name_from_the_content_reads_in_the_contents_translation(spanish):
    """Issue 38: a vice rolled was kept as its English name, "Faith" to a Spanish reader."""
    line = Words(_("%(line)s (undone by the GM)"), line=Named("Faith", of="vices"))
    assert str(line) == "Fe (undone by the GM)"
    assert str(Named("Faith", of="claims")) == "Faith"


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
    Named("Faith", of="vices"),
]


@pytest.mark.parametrize("line", LINES, ids=repr)
def test_words_go_to_json_and_back_unchanged(line):
    stored = json.dumps(line, cls=Encoder)
    back = json.loads(stored, cls=Decoder)
    assert (back, type(back), str(back)) == (line, type(line), str(line))
    assert from_data(to_data(line)) == line


def test_a_term_is_stored_as_a_term_not_as_the_players_words():
    assert json.loads(json.dumps(Term("Stress"), cls=Encoder)) == {"term": "Stress"}


def test_a_name_is_stored_with_the_list_it_is_from():
    named = from_data(to_data(Named("Faith", of="vices")))
    assert (type(named), named, named.of) == (Named, "Faith", "vices")


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
    {"name": "Faith", "of": 1},
    {"name": "Faith"},
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
