"""Decisions are a tagged union: one frozen type per kind, each with its ``kind`` and its own fields, sharing the
seat, count, reason, parties and options every consumer reads; the observation's JSON form round-trips each."""

import json

import pytest

from bigtwo.actions import (
    DECISION_KINDS,
    Ask,
    Bid,
    Decision,
    DecisionKind,
    Demand,
    Give,
    Grant,
    Look,
    Must,
    Redeal,
    Reply,
    Request,
    Surrender,
    Swap,
    Trade,
)
from bigtwo.cards import mask_of_tokens

EXAMPLES = [
    Give(0, 2, "the bum gives the president their highest", to=3, must=Must.HIGHEST, suit="S", shown=True),
    Surrender(1, 1, "the loser may surrender", to=2, options=("surrender", "decline")),
    Ask(2, 2, "steal by questions", source=0, suit="H", committed=1, answers=({"q": "have 2S", "a": "no"},)),
    Demand(3, 2, "what is given back", source=1, options=("lowest", "any")),
    Redeal(0, 0, "a poor hand", options=("redeal", "keep")),
    Swap(1, 1, "the leftover", options=("swap", "keep")),
    Bid(2, 1, "the auction", source=3, options=("pass",), cards=mask_of_tokens(["7D"]), best=mask_of_tokens(["8C"])),
    Trade(3, 1, "free trade", options=("done", "play")),
    Reply(
        0,
        1,
        "an offer",
        source=2,
        options=("accept", "decline"),
        cards=mask_of_tokens(["5D"]),
        want=mask_of_tokens(["2S"]),
    ),
    Request(1, 2, "ask for cards back", source=0, options=("none",)),
    Grant(2, 1, "a request", source=1, options=("grant", "refuse"), want=mask_of_tokens(["QH"])),
    Look(3, 0, "a face-down hand", options=("look", "pass")),
]


def test_one_type_per_kind():
    assert sorted(type(d).kind for d in EXAMPLES) == sorted(DECISION_KINDS)
    assert all(isinstance(d, Decision) and d.kind in DecisionKind for d in EXAMPLES)


@pytest.mark.parametrize("decision", EXAMPLES, ids=lambda d: d.kind)
def test_the_json_form_round_trips_to_the_same_type(decision):
    data = decision.to_dict()
    assert json.loads(json.dumps(data)) == data and data["kind"] == decision.kind
    back = Decision.from_dict(json.loads(json.dumps(data)), decision.seat)
    assert type(back) is type(decision) and back == decision


def test_a_kind_s_own_fields_are_only_its_own():
    give = EXAMPLES[0]
    assert give.must == "highest" and not hasattr(give, "best")
    assert not hasattr(EXAMPLES[-1], "must")  # a look has no 'must'


def test_unknown_kinds_and_musts_are_refused_in_words():
    with pytest.raises(ValueError, match="decision kind 'take'"):
        Decision.from_dict({"kind": "take", "count": 1}, 0)
    with pytest.raises(ValueError, match="'must' 'middle'"):
        Decision.from_dict({"kind": "give", "count": 1, "must": "middle"}, 0)
