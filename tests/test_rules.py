"""The Ruleset: validation, TOML, house rules, presets (issue: engine core, items 2 and 3)."""

import re
import tomllib
from pathlib import Path

import pytest

import bigtwo
from bigtwo import RulesError, Ruleset, list_presets, load_rules, rules_from_toml
from bigtwo.rules.ruleset import PRESET_DIR

ISSUE2_PRESETS = {
    "classic",
    "taiwan",
    "hong-kong",
    "singapore",
    "malaysia",
    "indonesia",
    "vietnam",
    "pusoy-dos",
    "bga",
    "house-code",
    "chor-dai-di",
}


def test_every_required_preset_ships():
    assert set(list_presets()) >= ISSUE2_PRESETS
    assert bigtwo.list_presets() == sorted(bigtwo.list_presets())


@pytest.mark.parametrize("name", sorted(ISSUE2_PRESETS))
def test_presets_load_and_round_trip_through_toml(name, tmp_path):
    rules = load_rules(name)
    assert rules.name == name
    again = rules_from_toml(rules.to_toml())
    assert again == rules
    path = tmp_path / f"{name}.toml"
    rules.save(path)
    assert load_rules(str(path)) == rules


@pytest.mark.parametrize("path", sorted(PRESET_DIR.glob("*.toml")), ids=lambda p: p.stem)
def test_every_preset_setting_cites_its_source(path: Path):
    """Each preset documents, in its file, the source text and section for every non-default choice."""
    lines = path.read_text(encoding="utf-8").splitlines()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    defaults = Ruleset.model_construct()
    rules = load_rules(path.stem)
    for key in rules.changes():
        if key in ("name", "description"):
            continue
        assert getattr(rules, key) != getattr(defaults, key)
    for i, line in enumerate(lines):
        m = re.match(r"^([a-z_]+)\s*=", line)
        if not m or m.group(1) in ("name", "description", "base"):
            continue
        comment = lines[i - 1] if i else ""
        j = i - 1
        while j > 0 and lines[j].startswith("#") and "source:" not in lines[j]:
            j -= 1
            comment = lines[j]
        assert "source:" in comment and re.search(r"\b00[0-4]\b|public", comment), (
            f"{path.name}: setting {m.group(1)!r} has no source comment"
        )
    assert data.get("name") == path.stem


def test_replace_makes_house_rules_and_validates():
    classic = load_rules("classic")
    cdhs = classic.replace(suit_order="CDHS")
    assert cdhs.suit_order == "CDHS" and classic.suit_order == "DCHS"
    assert cdhs != classic
    with pytest.raises(RulesError) as e:
        classic.replace(flush_order="by-colour")
    assert e.value.field == "flush_order"
    msg = str(e.value)
    assert "flush_order" in msg and "'ranks-then-suit'" in msg and "'top-card'" in msg
    with pytest.raises(RulesError) as e:
        classic.replace(suit_order="DCHX")
    assert "suit_order" in str(e.value) and "'none'" in str(e.value)


def test_unknown_settings_and_kinds_are_named_with_a_suggestion():
    with pytest.raises(RulesError) as e:
        load_rules("classic").replace(suit_ordr="CDHS")
    assert "suit_ordr" in str(e.value) and "suit_order" in str(e.value)
    with pytest.raises(RulesError) as e:
        rules_from_toml('[combinations]\ncombinations = ["single", "straigth"]')
    assert "straigth" in str(e.value) and "straight" in str(e.value)
    with pytest.raises(RulesError) as e:
        rules_from_toml('[play]\nsuit_order = "CDHS"')
    assert "[cards]" in str(e.value)
    with pytest.raises(RulesError) as e:
        rules_from_toml("[plya]\nplayers = 3")
    assert "unknown section [plya] (did you mean [play]?); sections: cards, deal" in str(e.value)


def test_bad_values_are_refused_in_words_without_method_names():
    """A house rule's error names the preset and the setting, not ``classic.replace()`` or pydantic's words."""
    classic = load_rules("classic")
    for change, words in [
        ({"jokers": "x"}, "changes to classic: setting 'jokers': 'x' is not a whole number"),
        ({"jokers": 5}, "setting 'jokers': 5 is not allowed; allowed: at most 2"),
        ({"decks": 0}, "setting 'decks': 0 is not allowed; allowed: at least 1"),
        ({"leftover_shown": "maybe"}, "setting 'leftover_shown': 'maybe' is not true or false"),
        ({"jokrs": 1}, "changes to classic: unknown rules setting 'jokrs'; did you mean 'jokers'?"),
        # made of a setting's words: that setting; far from every setting: no guess (not 'triple_straight_min')
        ({"direction_of_play": "clockwise"}, "unknown rules setting 'direction_of_play'; did you mean 'direction'?"),
        ({"wrap_straights": True}, "'wrap_straights'; bigtwo rules show classic lists every setting"),
    ]:
        with pytest.raises(RulesError) as e:
            classic.replace(**change)
        assert words in str(e.value) and "replace()" not in str(e.value), str(e.value)
    with pytest.raises(RulesError) as e:
        load_rules("clasic")
    assert str(e.value).startswith("no preset named 'clasic' (did you mean 'classic'?); presets: ")


def test_a_rules_file_that_cannot_be_read_is_a_rules_error_naming_it(tmp_path):
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(RulesError, match=r"folder.toml is a directory, not a rules file"):
        load_rules(str(folder))
    with pytest.raises(RulesError, match="is a directory"):
        load_rules(tmp_path)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b'\xff\xfe\x00name="x"\n')
    with pytest.raises(RulesError, match=r"bin.toml: not a rules file: rules files are UTF-8 text"):
        load_rules(str(binary))


def test_inconsistent_values_are_refused():
    with pytest.raises(RulesError, match="players"):
        load_rules("classic").replace(players=6)
    with pytest.raises(RulesError, match="straight_lengths"):
        load_rules("classic").replace(straight_lengths=(2,))
    with pytest.raises(RulesError, match=r"no preset named 'clasic'.*classic"):
        load_rules("clasic")


def test_a_house_rules_file_is_one_toml_away(tmp_path):
    path = tmp_path / "ours.toml"
    path.write_text(
        'base = "taiwan"\nname = "ours"\n[combinations]\nfive_card_beating = "same-category"\n',
        encoding="utf-8",
    )
    ours = load_rules(str(path))
    assert ours.suit_order == "CDHS" and ours.lead_card == "3C" and ours.five_card_beating == "same-category"
    assert ours.changes()["five_card_beating"] == "same-category"


def test_rules_are_frozen():
    rules = load_rules("classic")
    with pytest.raises(Exception):  # noqa: B017  (pydantic's frozen-instance error)
        rules.suit_order = "CDHS"


def test_settings_that_differ_are_named_in_the_order_of_the_settings():
    """One comparison serves a house rule's description, a network's table and the presets a ruleset plays."""
    classic = load_rules("classic")
    changed = classic.replace(jokers=2, suit_order="CDHS", name="ours", description="our rules")
    assert changed.differing(classic) == ["suit_order", "jokers"] == changed.differing(classic.settings())
    assert classic.replace(name="renamed", description="other words").differing(classic) == []
    stored = {**classic.settings(), "a_setting_of_another_version": 1}  # as a network's file may record
    assert classic.differing(stored) == ["a_setting_of_another_version"]
    assert classic.replace(jokers=2).changes_from_preset() == {"jokers": 2}
    assert "name" not in classic.settings() and classic.settings() == load_rules("hong-kong").settings()


def test_a_copy_with_other_settings_compiles_its_own_engine():
    """``model_copy(update=...)`` sets settings without validation (the evaluator's every-kind rules are one): the
    copy must not answer with the original's compiled engine, cached before the copy was made."""
    import copy

    classic = load_rules("classic")
    assert classic.classify("3D 3C") is not None  # compiles and caches the engine
    singles = classic.model_copy(update={"combinations": ("single",)})
    assert singles.classify("3D 3C") is None and singles.engine is not classic.engine
    assert classic.classify("3D 3C") is not None  # the original keeps its own
    assert copy.deepcopy(classic) == classic


def test_a_hand_size_the_deal_does_not_use_is_refused_in_words():
    """``hand_size`` deals only the 'fixed' and 'ghost' deals: set under another deal it would change nothing
    while a table showed it as a house rule, so it is refused, naming the setting and the deal."""
    with pytest.raises(RulesError, match=r"hand_size=20 counts only where deal is 'fixed' or 'ghost'.*'equal'"):
        load_rules("classic").replace(hand_size=20)
    assert load_rules("classic").replace(deal="fixed", hand_size=10).hand_size == 10
    assert load_rules("tien-len").replace(hand_size=10).hand_size == 10  # its own deal is 'fixed'


def _refusal(toml: str) -> str:
    with pytest.raises(RulesError) as e:
        rules_from_toml(f'base = "classic"\n{toml}', source="our.toml")
    return str(e.value)


@pytest.mark.parametrize(
    ("toml", "words"),
    [
        (
            '[play]\nplayers = "3"',
            "our.toml: setting 'players': '3' is text, not a whole number: write 3 without quotes",
        ),
        ("[play]\nplayers = 3.0", "setting 'players': 3.0 is not a whole number"),
        ("[cards]\njokers = true", "setting 'jokers': true is not a whole number"),
        ("[play]\npass_locks_out = 1", "setting 'pass_locks_out': 1 is not true or false"),
        ('[play]\npass_locks_out = "yes"', "setting 'pass_locks_out': 'yes' is not true or false"),
        ('[deal]\nleftover_shown = "true"', "'true' is text, not true or false: write true without quotes"),
        ('[combinations]\nstraight_lengths = [5, "6"]', "setting 'straight_lengths' (item 2): '6' is text"),
        ('[scoring.double_at]\n13 = "10"', "setting 'double_at' (13): '10' is text, not a whole number"),
        ("[play]\nhorse_game = false", "setting 'horse_game': false is not allowed; allowed: 0 (off), 2 or 3"),
        ("[play]\nhorse_game = 2.0", "setting 'horse_game': 2.0 is not allowed"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_not_taken_for_another(toml, words):
    """A rules file is TOML, whose values have types: "3" is text and 1 is a number, not true. Taking them for
    what they might mean would let a mistake through, so each is refused naming the setting and the value."""
    assert words in _refusal(toml)


def test_base_is_a_preset_name_at_the_top_of_the_file():
    with pytest.raises(RulesError, match=r"our.toml: base = 3 is not a preset's name; write it as text"):
        rules_from_toml("base = 3", source="our.toml")
    with pytest.raises(RulesError, match=r"'base' belongs at the top of the file, before \[play\]"):
        rules_from_toml('[play]\nbase = "taiwan"', source="our.toml")


@pytest.mark.parametrize(
    ("toml", "words"),
    [
        (
            '[play]\ndirection = "counterclockwise"',
            "'clockwise' or 'counter-clockwise'; did you mean 'counter-clockwise'?",
        ),
        ('[play]\ndirection = "anticlockwise"', "did you mean 'counter-clockwise'?"),
        ('[play]\ndirection = "clockwize"', "did you mean 'clockwise'?"),
        ('[combinations]\nstraight_table = "hongkong"', "did you mean 'hong-kong'?"),
        (
            '[[combinations.bombs]]\nkind = "four_of_a_kind"\nbeat = ["any"]',
            "setting 'bombs' (item 1): 'beat' is not a bomb's setting (did you mean 'beats'?)",
        ),
        ('[[combinations.bombs]]\nbeats = ["any"]', "setting 'bombs' (item 1): a bomb needs its kind, as in {"),
        ('[combinations]\nbombs = ["four_of_a_kind"]', "'four_of_a_kind' is not a bomb; a bomb is a table such as"),
        ('[combinations]\nbombs = [{kind = "four_of_a_kind", beats = ["anyy"]}]', "(item 1, beats, item 1): 'anyy'"),
        ("[scoring.double_at]\n130 = 10", "130 = 10: no hand is dealt 130 cards; the keys are hand sizes from 1 to 54"),
    ],
)
def test_a_mistaken_value_is_named_in_the_files_words_with_a_suggestion(toml, words):
    """Values are shown as the file writes them (true, not True), list items counted from 1, a bomb's keys named,
    and a near miss of an allowed word answered with it (spelling, spaces, hyphens, or a word of the same meaning)."""
    msg = _refusal(toml)
    assert words in msg and "Input should" not in msg and "Field required" not in msg and "Extra inputs" not in msg


def test_bombs_are_shown_as_a_rules_file_writes_them():
    """``rules show`` and a house rule's description list bombs as TOML, not as pydantic's repr
    (``kind='quad' length=None beats=('single-two',)``)."""
    ours = rules_from_toml('base = "classic"\n[combinations]\nbombs = [{kind = "four_of_a_kind", beats = ["any"]}]')
    assert 'bombs = { kind = "four_of_a_kind", beats = ["any"] }' in ours.shown_description()
    chops = [str(b) for b in load_rules("tien-len").bombs]
    assert chops[0] == '{ kind = "pair_straight", length = 3, beats = ["single-two"] }'
    assert all("=None" not in c and "('" not in c for c in chops)
    again = rules_from_toml(f'base = "tien-len"\n[combinations]\nbombs = [{", ".join(chops)}]')
    assert again.bombs == load_rules("tien-len").bombs  # what is shown can be written back


def test_settings_that_contradict_each_other_are_one_sentence_naming_them():
    with pytest.raises(RulesError) as e:
        rules_from_toml('base = "classic"\n[play]\nplayers = 5', source="our.toml")
    assert str(e.value) == "our.toml: players=5 must lie within min_players=2 and max_players=4"
    with pytest.raises(RulesError) as e:
        rules_from_toml('base = "classic"\n[[combinations.bombs]]\nkind = "quad"', source="our.toml")
    assert str(e.value) == (
        "our.toml: bomb kind 'quad' is not among the enabled combinations: add it to combinations, "
        "or leave that bomb out"
    )


def test_the_rules_page_settings_table_names_every_setting_and_kind_count():
    """The rules page's table of settings by area (docs/rules.md) is where a group writing house rules looks
    first: it names them all. (The house-rules reference beside it is generated from the model.)"""
    from bigtwo.rules.kinds import KINDS

    page = (Path(__file__).parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    table = page[page.index("## Everything the family plays, as settings") : page.index("## Exchanges and other")]
    missing = [k for k in Ruleset.model_fields if k not in ("name", "description") and f"`{k}`" not in table]
    assert not missing, f"docs/rules.md's settings table does not name {missing}"
    assert f"`combinations` ({len(KINDS)} kinds" in table


def test_a_setting_of_a_system_the_rules_do_not_use_is_noted_as_without_effect():
    """A house rule written for a system the rules do not play (pass_count without the pass-around, a joker
    setting without jokers) is allowed, and ``rules show`` says it changes nothing; no preset has one, and a
    setting left at its default is never noted."""
    for name in list_presets():
        assert load_rules(name).settings_without_effect == {}, name
    r = load_rules("classic").replace(pass_count=2, joker_mode="wild", redeal_points=5, bga_base="ranks")
    assert r.settings_without_effect == {
        "pass_count": 'exchange = "pass-around"',
        "joker_mode": "jokers",
        "redeal_points": 'redeal_requests with "low-points"',
        "bga_base": 'scoring = "bga"',
    }
    assert 'pass_count has no effect without exchange = "pass-around".' in r.notes()
    used = load_rules("zheng-shangyou").replace(pass_count=2, joker_mode="wild")
    assert used.settings_without_effect == {}
    assert load_rules("classic").replace(scoring="bga", bga_base="ranks").settings_without_effect == {}
    assert load_rules("president").replace(exchange="none", steal_small_table=1).settings_without_effect == {
        "steal_small_table": 'exchange = "mandatory-trading"'
    }
