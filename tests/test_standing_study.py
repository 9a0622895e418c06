"""The 1 s matches kept in lab/matches and lab/studies/standing.py, which pools them by bot: the evidence of the
1 s target (moved from test_results_cli.py with the study)."""

import math

from bigtwo.arena.results import ArenaResult
from bigtwo.arena.stats import clustered_interval
from tests.benchmark_scripts import MATCHES, study_module


def test_the_kept_matches_read_back_as_their_listing_says():
    """The long matches the repository keeps (lab/matches/) are every game of each, compressed: each file
    is listed in the folder's README with its bot, deals and figures, and each reads back to what its row says,
    so the listing cannot drift from the files and a file cannot be added unlisted."""
    folder = MATCHES
    rows = [
        [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        for line in (folder / "README.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| `")
    ]
    assert {row[0] for row in rows} == {p.name for p in folder.glob("*.json.gz")} != set()
    for name, bot, deals, points, win in rows:
        result = ArenaResult.load(folder / name)
        me = result.summary()[0]
        assert result.config["lineup"][0]["label"] == me.label == bot, name
        assert deals == f"{result.config['deals']} (seed {result.config['seed']})", name
        assert points == f"{me.points.mean:+.2f} [{me.points.low:+.2f}, {me.points.high:+.2f}]", name
        assert win == f"{me.win_rate.mean:.1%}", name


def test_a_bot_s_kept_matches_pool_by_its_network_not_the_file_that_named_it():
    """lab/studies/standing.py: the search's network as it shipped, played as the default (no weights named), and
    the same network named by its file in training/ are one bot, pooled over both matches' deals; another network
    is another bot."""
    standing = study_module("standing")
    rows = standing.standings()
    by_file = {name: row for row in rows for name in row.files}
    named, shipped = by_file["isearch-1s-2057-stage13-34m.json.gz"], by_file["isearch-1s-2060-shipped-34m.json.gz"]
    assert named is shipped and named.options == standing.REFERENCE
    assert {2057, 2060} <= set(named.seeds) and len(named.points) == 40 * len(named.files)
    assert by_file["isearch-1s-2057-stage13-60m.json.gz"] is not named
    paired = by_file["isearch-1s-2057-stage13-60m.json.gz"].beside(named)
    assert paired is not None and paired.n == 80  # seeds 2057 and 2058, both played by both networks


def test_matches_that_named_a_file_alike_but_read_other_contents_are_two_bots(tmp_path):
    """lab/studies/standing.py keys a bot by the digests of every file it read, not by the names: a copy of a kept
    match whose opponents' model had other contents under the same name stands apart; an exact copy pools, and
    so does one that named no file where its defaults read the same shipped files (the spec by name alone)."""
    standing = study_module("standing")
    path = MATCHES / "isearch-1s-2061-mean-standin-beliefs.json.gz"
    kept = ArenaResult.load(path)
    kept.save(tmp_path / "a.json.gz")
    kept.save(tmp_path / "b.json.gz")
    kept.config["provenance"]["bots"][0]["files"]["opponent_weights"] = "0123456789abcdef"
    kept.save(tmp_path / "c.json.gz")
    by_name = ArenaResult.load(path)
    for option in ("weights", "opponent_weights", "belief_weights"):
        del by_name.config["lineup"][0]["options"][option]
    record = by_name.config["provenance"]
    record["models"][standing.SEARCH_NETWORK] = record["bots"][0]["files"].pop("weights")
    by_name.save(tmp_path / "d.json.gz")
    rows = standing.standings(tmp_path)
    assert sorted(sorted(row.files) for row in rows) == [["a.json.gz", "b.json.gz", "d.json.gz"], ["c.json.gz"]]
    # the same words: only the contents differ, and the files are shown beside them
    assert {row.options for row in rows} == {"isearch(budget_ms=1000, utility='cards')"}
    # a match played before those defaults read no such file: its words are the spec that plays it today
    ArenaResult.load(MATCHES / "isearch-1s-2061-shipped-34m.json.gz").save(tmp_path / "e.json.gz")
    before = [row for row in standing.standings(tmp_path) if row.files == ["e.json.gz"]]
    assert [row.options for row in before] == [standing.REFERENCE]
    assert standing.REFERENCE.endswith("belief_weights=None, opponent_weights=None)")


def test_the_standing_at_1_s_is_the_kept_matches_pooled_by_bot():
    """lab/studies/standing.py's table is the kept matches (lab/matches) as they are now: every file in one
    row, one row a bot, and each row's deals and points a game worked out afresh from its files' games, best
    first, with one reference row. (The table as printed on a day is kept in the lab log, not checked here.)"""
    standing = study_module("standing")
    rows = standing.standings()
    printed = standing.table(rows, standing.network_names()).splitlines()[2:]
    folder = MATCHES
    assert len(printed) == len(rows) > 0
    assert sorted(name for row in rows for name in row.files) == sorted(p.name for p in folder.glob("*.json.gz"))
    for row, line in zip(rows, printed, strict=True):
        points: dict[int, float] = {}
        for name in row.files:
            points.update(ArenaResult.load(folder / name).points_by_deal(0, key="deal_seed"))
        pooled = clustered_interval({deal: [p] for deal, p in points.items()})
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        assert cells[0] == f"`{row.options}`", line
        assert cells[2] == ", ".join(str(seed) for seed in sorted(row.seeds)), line
        assert cells[3] == str(len(points)), line
        assert cells[4] == f"**{pooled.mean:+.2f}** [{pooled.low:+.2f}, {pooled.high:+.2f}]", line
    means = [row.interval().mean for row in rows]
    assert means == sorted(means, reverse=True)
    assert sum(line.endswith("| (the reference) |") for line in printed) == 1


def test_every_kept_1_s_decision_was_within_1_s_of_the_bot_s_own_time():
    """The target's time rule, read from the kept games: each bot's slowest decision in its own CPU time is
    under its 1 s budget (the wall clock, which another process on the core can stretch, is shown beside it)."""
    standing = study_module("standing")
    rows = standing.standings()
    assert rows and all(row.untimed == 0 and 0 < row.slowest_cpu_ms <= 1000 for row in rows)
    assert all(row.slowest().endswith(f"(wall {math.ceil(row.slowest_ms):,})") for row in rows)
