"""lab/studies/regret.py: a search's regret at a fixed number of deals, against a many-deal truth."""

from __future__ import annotations

import pytest

from bigtwo import load_rules
from tests.benchmark_scripts import study_module

ARM = "isearch(iterations=4, utility='cards', playout='learned')"


def test_regrets_are_read_from_the_truth_and_an_arm_twice_is_level_with_itself():
    regret = study_module("regret")
    rows = regret.measure([ARM, ARM, ARM.replace("iterations=4", "iterations=12")], 3, 16, 2, 1, 300, "classic", 4)
    assert rows, "no position searched two candidates"
    for row in rows:
        assert all(r >= 0 for r in row["regret"])  # the truth's best less the choice's value
        assert row["regret"][0] == row["regret"][1]  # the same seeds choose alike: an arm is level with itself
    lines = regret.table([ARM, ARM, ARM.replace("iterations=4", "iterations=12")], rows)
    assert lines[0].startswith(f"{len(rows)} positions") and "+0.000 [+0.000, +0.000]" in lines[4]


def test_an_arm_not_counted_in_deals_is_refused():
    regret = study_module("regret")
    with pytest.raises(SystemExit, match="an isearch counted in deals"):
        regret.truth_spec("isearch(budget_ms=1000)", 300)
    with pytest.raises(SystemExit, match="an isearch counted in deals"):
        regret.truth_spec("search(iterations=10)", 300)
    spec = regret.truth_spec(ARM, 300)
    assert spec.options["iterations"] == 300
    assert not regret.truth_bot(ARM, 300, 7).plan_for(load_rules("classic"), 4).halving
