"""Issue 14, the terminal: one wording for the player at both tables (names not seat numbers, verbs and plurals
that agree, one card notation in the hand, lists, errors and log, no citations of source texts), square
brackets that survive rich, and the plain table's --bots, hint and save."""

import io
import re
from dataclasses import replace

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from bigtwo import load_rules
from bigtwo.cli import app
from bigtwo.cli.plain import PlainTable
from bigtwo.cli.session import TableSession
from bigtwo.cli.tui import decision_text
from bigtwo.cli.words import Wording, card_face, plural
from bigtwo.errors import BigTwoError
from bigtwo.record import load_record
from bigtwo.words import TABLE_NAMES, table_names

runner = CliRunner()

RECORD_CARD = re.compile(r"(?<![\w♦♣♥♠])(?:10|[2-9TJQKA])[DCHS](?![\w])")  # 5D, TH: the record's notation
ENGINE_SEAT = re.compile(r"\bseats? \d|\bP\d\b")
CITATION = re.compile(r"\b00\d\b|section \d")
BAD_GRAMMAR = re.compile(r"\b1 cards\b|\bYou (?:deals|plays|passes|pays|owes|gives|asks|does|has|is|goes)\b")


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


def check_words(text: str) -> None:
    assert not ENGINE_SEAT.search(text), text
    assert not CITATION.search(text), text
    assert not BAD_GRAMMAR.search(text), text
    assert not RECORD_CARD.search(text), text


def test_engine_messages_in_the_players_words():
    w = Wording(0)
    assert w.render("seat 0 does not hold 5D") == "You do not hold 5♦"
    assert w.render("seat 0 pays 24 (12 cards, at least 10, x2)") == "You pay 24 (12 cards, at least 10, x2)"
    assert w.render("seat 2 pays 3 to seat 0, ranked higher") == "Seat 2 pays 3 to you, ranked higher"
    assert w.render("seat 3 pays 3 (face value of 1 cards)") == "Seat 3 pays 3 (face value of 1 card)"
    assert w.render("seats 0 and 2 win") == "You and Seat 2 win"
    # a name opening a sentence is written as its player wrote it, never capitalised (issue 89)
    named = Wording(None, ["alice_nu", "Bob"])
    assert named.render("seat 0 pays 6") == "alice_nu pays 6"
    assert named.render("the lead card is 3D") == "The lead card is 3♦"
    assert w.render("P1 plays TH TS, P0 passes") == "Seat 1 plays 10♥ 10♠, you pass"
    assert w.render("a straight 7-8-9-T-J with the spade", opens=False) == "a straight 7-8-9-10-J with the spade"
    # citations stay in the docs: dropped, or reduced to the note they carry
    assert w.render("the bum passes their 2 highest cards (002 Big two president variation)") == (
        "The bum passes their 2 highest cards"
    )
    assert w.render("'x' is not a question (003 section 3.2.2.2.2, the privacy rule); ask") == (
        "'x' is not a question (the privacy rule); ask"
    )
    assert Wording(1, ascii_cards=True).render("seat 0 holds TH") == "Seat 0 holds 10H"
    assert w.markup("belongs in [play], not [cards]", opens=False) == r"belongs in \[play], not \[cards]"
    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards"


@pytest.mark.parametrize(("preset", "rounds"), [("classic", None), ("pusoy-dos", None), ("president", 2)])
def test_everything_the_table_says_is_in_the_players_words(preset, rounds):
    """A whole round (or a match with exchanges) following the hint: every log line, decision, hint, error and
    explanation names players, agrees in number, writes cards one way and cites no source."""
    session = TableSession(load_rules(preset), seed=5, rounds=rounds)
    said = []
    while not session.is_over:
        if not session.human_to_move:
            session.bot_step()
            continue
        d = session.decision
        if d is not None:
            said.append(plain(decision_text(session, d)))
        hint = session.hint()
        said.append(hint.text)
        said += [session.describe(x) for x in session.legal_choices()]
        if session.game is not None and d is None:
            hand = session.hand()
            said.append(session.explain(1 << int(hand[0]) | 1 << int(hand[-1]))[1])  # not a combination
            try:
                session.act(" ".join(str(c) for c in hand[:2]) if len(hand) > 1 else "pass")
            except BigTwoError as e:  # what the table shows for an illegal play
                said.append(session.say(getattr(e, "reason", e)))
            else:
                continue
        session.act(hint.answer)
    said += [plain(line) for line in session.log]
    for text in said:
        check_words(text)
    log = "\n".join(plain(line) for line in session.log)
    named = "|".join(TABLE_NAMES)
    assert not re.search(r"\bSeat \d", log)  # names, not seat numbers
    if preset == "classic":  # the scoring details name the players
        assert re.search(rf"\b(You pay|({named}) pays) \d+", log)
    if rounds:
        assert re.search(rf"Round 1 of 2: (You deal|({named}) deals)\.", log)


def test_one_card_notation_in_the_hand_the_legal_list_and_the_errors():
    session = TableSession(load_rules("classic"), seed=4)
    while not session.human_to_move:
        session.bot_step()
    faces = {card_face(c) for c in session.hand()}
    legal = ", ".join(session.describe(p) for p in session.legal_choices())
    shown = re.findall(r"(?:10|[2-9JQKA])[♦♣♥♠]", legal)
    assert shown and set(shown) <= faces and not RECORD_CARD.search(legal)
    missing = next(c for c in load_rules("classic").engine_for(4).sort_cards((1 << 52) - 1) if c not in session.hand())
    try:
        session.act(str(missing))
    except BigTwoError as e:
        message = session.say(getattr(e, "reason", e))
    assert message == f"You do not hold {card_face(missing)}"


def test_the_plain_table_reads_bots_with_the_spec_parser_and_plays_the_hint(tmp_path):
    """`bigtwo play --plain --bots 'greedy,random,search(iterations=40)'` (the help's example) seats those
    bots; `hint` then enter plays the hint to the end; `save` writes the record."""
    path, final = tmp_path / "plain.txt", tmp_path / "final.json"
    BOTS = "greedy,random,search(iterations=2)"
    res = runner.invoke(
        app,
        ["play", "--plain", "--seed", "3", "--delay", "0", "--bots", BOTS, "--save", str(final)],
        input=f"save {path}\n" + "hint\n\n" * 60,
        env={"COLUMNS": "120"},
    )
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Ana (greedy)" in out and "Ben (random)" in out and "Chloe (search(iterations=2))" in out
    assert "Hint: " in out and "Round over:" in out and "Not allowed" not in out
    assert f"Saved the record (unfinished) to {path}" in out.replace("\n", "")
    assert load_record(path).result == "*"
    rec = load_record(final)
    assert rec.names == ["you", "Ana (greedy)", "Ben (random)", "Chloe (search(iterations=2))"] and rec.result != "*"
    res = runner.invoke(app, ["play", "--plain", "--bots", "grabby"])
    assert res.exit_code == 2 and "no bot named 'grabby'" in res.output


def test_the_plain_table_defaults_to_the_heuristic_bot_and_lists_every_legal_answer():
    out = io.StringIO()
    answers = iter(["legal", "quit"])
    table = PlainTable(
        load_rules("president"),
        seed=1,  # the human becomes the president and steals by questions: 53 of them to choose from
        rounds=2,
        delay=0,
        console=Console(file=out, width=100),
        input_fn=lambda _p: next(answers),
    )
    assert {b.name for b in table.bots.values()} == {"heuristic"}
    while True:  # play round 1 by the hints until the human has an exchange decision with many answers
        s = table.session
        assert not s.is_over, "no long exchange list in this deal"
        if s.human_to_move and s.decision is not None and len(s.legal_choices()) > 40:
            break
        s.act(s.hint().answer) if s.human_to_move else s.bot_step()
    legal = s.legal_choices()
    table._printed = len(s.log)
    table.human_turn()
    text = re.sub(r"\s+", " ", out.getvalue())  # as printed, wrapped at 100 columns
    assert f"{len(legal)} legal answers:" in text
    for choice in legal:
        assert s.describe(choice) in text  # all of them, none cut


def test_square_brackets_survive_in_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\n[cards]\nflush_order = "suit-then-ranks"\n')
    for args in (["rules", "show", str(bad)], ["play", "--plain", "--rules", str(bad)]):
        res = runner.invoke(app, args, env={"COLUMNS": "300"})
        assert res.exit_code == 2 and "[combinations]" in res.output and "[cards]" in res.output, res.output


def test_every_bot_a_player_can_pick_is_said_in_one_plain_sentence():
    """The browser's seat menu and ``bigtwo bots`` describe each bot in a player's words: one whole sentence
    (the first line of a docstring cut the learned bot's mid-sentence), no code markup, no citations."""
    import bigtwo.bots  # noqa: F401  (the built-in bots register themselves)
    from bigtwo.bots.named import register_spec, unregister
    from bigtwo.bots.registry import BOTS, bot_words

    for name in BOTS:
        words = bot_words(name)
        assert words.endswith(".") and words.count(". ") == 0 and len(words) < 200, (name, words)
        assert "``" not in words and "=" not in words and not CITATION.search(words), (name, words)
    register_spec("club-champion", "isearch(budget_ms=300)")
    try:  # a server's own bot says what it is set up from
        assert bot_words("club-champion") == "the isearch bot as this server sets it up"
    finally:
        unregister("club-champion")
    out = runner.invoke(app, ["bots"]).output
    assert "A network trained over millions of games" in out and "``" not in out


def test_the_computer_players_have_names_and_the_player_can_choose_them():
    """By default the table's names, in seat order with the person's seat skipped; ``--names`` gives one a
    computer player, shown in the seat list and the log (the record keeps the bots that played)."""
    assert table_names(0, 4) == ["You", "Ana", "Ben", "Chloe"]
    assert table_names(2, 4) == ["Ana", "Ben", "You", "Chloe"]
    assert table_names(7, 8) == ["You" if s == 7 else TABLE_NAMES[s] for s in range(8)]
    res = runner.invoke(
        app,
        ["play", "--plain", "--seed", "3", "--delay", "0", "--bots", "greedy", "--names", "Mum, Dad,Grandpa"],
        input="hint\n\n" * 60,
        env={"COLUMNS": "120"},
    )
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Mum (greedy)" in out and "Dad (greedy)" in out and "Grandpa (greedy)" in out
    assert re.search(r"\b(Mum|Dad|Grandpa) plays\b", out) and "Ana" not in out and not re.search(r"\bSeat \d", out)


@pytest.mark.parametrize(
    "names,message",
    [
        ("Mum,Dad", "--names gives 2 names for 3 computer players"),
        ("Mum,Dad,Grandpa,Gran", "--names gives 4 names for 3 computer players"),
        ("Mum,,Dad", "'' is not a name a table can show: 1 to 16 printable characters"),
        ("Mum,Dad,Bartholomew the Great", "'Bartholomew the Great' is not a name a table can show"),
        ("Mum,Dad,Tab\tby", "is not a name a table can show"),
        ("Mum,YOU,Dad", "'YOU' is what the table calls you: choose another name"),
        ("Mum,Dad,mum", "'Mum' is given to two players: every name must be different"),
    ],
)
def test_bad_names_are_refused_in_words(names, message):
    res = runner.invoke(app, ["play", "--plain", "--seed", "3", "--names", names], input="quit\n")
    assert res.exit_code == 2 and message in " ".join(res.output.split()), res.output


def test_a_replay_names_the_players_as_their_table_did():
    """A terminal record names each computer player with its bot (``Mum (greedy)``): the replay calls it by that
    name with the bot beside; an older record's bare bots get the table's names, and the server's bots
    (``Chloe (random)``) and people keep theirs."""
    from bigtwo.cli.replay_view import computer_player, replay_words

    assert computer_player("Mum (greedy)") == ("Mum", "greedy")
    assert computer_player("Chloe (search(iterations=2))") == ("Chloe", "search(iterations=2)")
    assert computer_player("search(iterations=2)") == (None, "search(iterations=2)")
    assert computer_player("Ann (the host)") == (None, None) and computer_player("Ann") == (None, None)
    session = TableSession(load_rules("classic"), seed=3, bots="greedy", names=["Mum", "Dad", "Grandpa"])
    while not session.is_over:
        session.act(session.hint().answer) if session.human_to_move else session.bot_step()
    record = session.record()
    assert record.names == ["you", "Mum (greedy)", "Dad (greedy)", "Grandpa (greedy)"]
    words = replay_words(record)
    assert [words.name(s) for s in range(4)] == ["You", "Mum", "Dad", "Grandpa"]
    older = replay_words(replace(record, names=["random", "you", "random", "Ann"]))
    assert [older.name(s) for s in range(4)] == ["Ana", "You", "Ben", "Ann"]


def test_exchange_questions_and_demands_read_as_sentences():
    """A steal's question and a demand keep their lower case inside a sentence, a give asks for 'any card' or
    'your lowest 2 spades' (no 'any 1 cards'), and a suit is a word ('1 spade', not '1 S')."""
    from bigtwo.cli.session import bound_text, decision_question

    s = TableSession(load_rules("president"), seed=7, bots="greedy", rounds=2)
    ask = {"type": "question", "from": 0, "to": 3, "question": "highest", "answer": "takes", "cards": ["2S"]}
    assert s._event_line(ask).startswith("You ask 'highest': takes")
    demand = {"type": "demand", "from": 2, "to": 0, "choice": "lowest"}
    assert s._event_line(demand).endswith("demands the lowest cards back.")
    give = {"kind": "give", "count": 1, "must": "any", "to": 1}
    assert decision_question(s, give)[0] == f"Give any card to {s.name(1)}"
    give = {"kind": "give", "count": 2, "must": "lowest", "suit": "S", "to": 1}
    assert decision_question(s, give)[0] == f"Give your lowest 2 spades to {s.name(1)}"
    assert bound_text({"suit": "S", "committed": 1}) == "You must take 1 spade first."
    assert bound_text({"suit": "H", "committed": 2}) == "You must take 2 hearts first."
    table = PlainTable(
        load_rules("president"), seed=7, bots="greedy", rounds=2, delay=0, console=Console(file=io.StringIO())
    )
    asked = {"question": "highest", "answer": "takes", "cards": ["2S"]}
    steal = {"kind": "ask", "count": 1, "from": 3, "suit": "S", "committed": 1, "answers": [asked]}
    text = table.describe_decision(steal)
    assert "asked 'highest': takes" in text and "You must take 1 spade first." in text


def test_the_winner_of_the_last_round_leads_in_agreement_with_its_subject():
    """Winner's later rounds open with who won the last one: 'You ... lead', 'Ben ... leads'."""
    from bigtwo.bots import make

    said = []
    for seed in range(12):
        s = TableSession(load_rules("winner"), seed=seed, bots="greedy", rounds=3)
        me = make("greedy", seed=seed)
        while not s.is_over:
            if s.human_to_move:
                s.act(me.choose(s.rules, s.observe()))
            else:
                s.bot_step()
        said += [line for line in s.log if "won the last round" in line]
        if any(line.startswith("You") for line in said) and any(not line.startswith("You") for line in said):
            break
    assert any(line.startswith("You") for line in said) and any(not line.startswith("You") for line in said)
    for line in said:
        assert re.fullmatch(r"You won the last round and lead\.|\w+ won the last round and leads\.", line), line


def quit_at_once(rules, players: int, seat: int = 0) -> tuple[PlainTable, str]:
    """A plain table whose player quits at the first question, and what it said until then."""
    out = io.StringIO()
    table = PlainTable(
        rules,
        players=players,
        seat=seat,
        seed=5,
        bots="random",
        delay=0,
        console=Console(file=out, width=200),
        input_fn=lambda _p: "quit",
    )
    table.run()
    return table, out.getvalue()


@pytest.mark.parametrize(
    ("preset", "players", "seat", "said"),
    [
        ("classic", 4, 0, "Play passes to the right (counter-clockwise): Ana plays after you."),
        ("winner", 4, 0, "Play passes to the left (clockwise): Ana plays after you."),
        ("house-code", 3, 2, "Play passes to the left (clockwise): Ana plays after you."),
    ],
)
def test_both_tables_say_which_way_play_goes_round_the_table(preset, players, seat, said):
    """The rules' direction in the browser table's words: counter-clockwise play passes to the right, clockwise
    to the left; the plain table names who plays after you, the full-screen one says it under the players."""
    from bigtwo.cli.tui import seats_subtitle
    from bigtwo.cli.words import play_direction

    rules = load_rules(preset)
    table, said_at_start = quit_at_once(rules, players, seat)
    lines = said_at_start.splitlines()
    assert said in lines, lines[:4]
    check_words(said)
    side = "right" if rules.direction == "counter-clockwise" else "left"
    arrow = "↺" if side == "right" else "↻"
    assert seats_subtitle(table.session) == f"{arrow} Play passes to the {side}"
    assert play_direction(rules.direction, players) == said.partition(":")[0]


def test_two_players_are_not_told_a_direction():
    """At two players play goes back and forth: no side to name."""
    from bigtwo.cli.tui import seats_subtitle
    from bigtwo.cli.words import play_direction

    table, said_at_start = quit_at_once(load_rules("classic"), 2)
    assert "Play passes" not in said_at_start
    assert seats_subtitle(table.session) is None
    assert play_direction("clockwise", 2) is None and play_direction("counter-clockwise", 2, short=True) is None


@pytest.mark.parametrize("players", [3, 4, 8])
def test_the_direction_words_are_one_set_for_every_table(players):
    """bigtwo.words says which way play goes once, for the terminal tables and the server's views alike: seen from
    above, clockwise play passes to the left and counter-clockwise to the right, each with its own arrow; the
    terminal's one-line forms are these words."""
    from bigtwo.cli.words import play_direction as terminal_words
    from bigtwo.words import direction_said, play_direction

    assert direction_said("clockwise", players) == {
        "long": "Play passes to the left (clockwise)",
        "short": "Play passes to the left",
        "arrow": "↻",
        "listed": "Play passes to the left (clockwise): the seats are listed in the order of play.",
    }
    assert direction_said("counter-clockwise", players) == {
        "long": "Play passes to the right (counter-clockwise)",
        "short": "Play passes to the right",
        "arrow": "↺",
        "listed": "Play passes to the right (counter-clockwise): the seats are listed in the order of play.",
    }
    assert terminal_words is play_direction  # the terminal re-exports the one wording
    assert play_direction("clockwise", players) == "Play passes to the left (clockwise)"
    assert play_direction("clockwise", players, short=True) == "↻ Play passes to the left"
    assert play_direction("counter-clockwise", players) == "Play passes to the right (counter-clockwise)"
    assert play_direction("counter-clockwise", players, short=True) == "↺ Play passes to the right"
    from bigtwo import words
    from bigtwo.rules.choices import Direction

    assert set(words._WAYS) == set(Direction)  # the words layer's table covers the rules' directions, no more
    for direction in Direction:  # the rules' members read as their words
        assert direction_said(direction, players) == direction_said(str(direction.value), players)
        for words_ in direction_said(direction, players).values():
            check_words(words_)
        assert direction_said(direction, 2) is None and play_direction(direction, 2) is None
