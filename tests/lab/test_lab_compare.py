"""``kingmaker lab compare``: two studies on the same deals, game by game, with the sign test."""

from __future__ import annotations

from math import comb
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("pyarrow")

from kingmaker.lab.backends import SerialBackend  # noqa: E402
from kingmaker.lab.cli import lab  # noqa: E402
from kingmaker.lab.compare import compare_runs  # noqa: E402
from kingmaker.lab.runner import run_study  # noqa: E402
from kingmaker.lab.store import StoreError, read_rows  # noqa: E402
from kingmaker.lab.study import load_study  # noqa: E402

KK = """
game = "kings-kilt"
players = [2, 3]
agents = [{agents}]
games = 16
seed = {seed}
"""

GGC = """
game = "gangs-of-green-city"
players = [2]
agents = ["{agent}"]
games = 30
seed = 4
[options]
escalations = 4
"""


def _run(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / f"{name}.toml"
    p.write_text(text)
    out = tmp_path / name
    run_study(load_study(p), out, SerialBackend())
    return out


def _rows(out: Path) -> dict:
    table, _ = read_rows((out / "parts").glob("*.parquet"))
    return {(r["cell_key"], r["index"]): r for r in table.to_pylist()}


def _p(k: int, n: int) -> float:
    return min(1.0, 2 * sum(comb(n, i) for i in range(min(k, n - k) + 1)) / 2**n) if n else 1.0


def test_a_cooperative_comparison_counts_each_deal_the_two_teams_ended_differently(tmp_path):
    a = _run(tmp_path, "heuristic", GGC.format(agent="heuristic"))
    b = _run(tmp_path, "random", GGC.format(agent="random"))
    c = compare_runs(a, b)
    ra, rb = _rows(a), _rows(b)
    assert ra.keys() == rb.keys() and all(ra[k]["seed"] == rb[k]["seed"] for k in ra)
    won_a = {k for k, r in ra.items() if r["reason"] == "recruitment_ended"}
    won_b = {k for k, r in rb.items() if r["reason"] == "recruitment_ended"}
    [cell] = c["cells"]
    assert cell["deals"] == 30 and c["cooperative"]
    assert cell["a_wins"] == len(won_a) and cell["b_wins"] == len(won_b)
    assert (cell["a_better"], cell["b_better"]) == (len(won_a - won_b), len(won_b - won_a))
    assert cell["p"] == pytest.approx(_p(cell["a_better"], cell["a_better"] + cell["b_better"]))
    assert cell["a_wins"] > cell["b_wins"]  # the heuristic team wins some; random play next to none
    assert c["unpaired"] == {"a": 0, "b": 0}


def test_a_competitive_comparison_follows_the_first_agent_round_the_seats(tmp_path):
    a = _run(tmp_path, "hr", KK.format(agents='"heuristic", "random"', seed=3))
    b = _run(tmp_path, "rr", KK.format(agents='"random"', seed=3))
    c = compare_runs(a, b)
    ra, rb = _rows(a), _rows(b)
    assert [x["key"] for x in c["cells"]] == ["players=2", "players=3"]
    for cell in c["cells"]:
        keys = [k for k in ra if k[0] == cell["key"]]
        # A: the heuristic's seat wins (rotating seat); B: seat 0 wins (every seat random).
        mine = [(ra[k]["seats"].index("heuristic"), ra[k]["winners"]) for k in keys]
        va = [1.0 / len(w) if s in w else 0.0 for s, w in mine]
        vb = [1.0 / len(rb[k]["winners"]) if 0 in rb[k]["winners"] else 0.0 for k in keys]
        assert cell["deals"] == 16
        assert cell["a_wins"] == pytest.approx(sum(va)) and cell["b_wins"] == pytest.approx(sum(vb))
        assert cell["a_better"] == sum(x > y for x, y in zip(va, vb))
        assert cell["b_better"] == sum(y > x for x, y in zip(va, vb))


def test_runs_on_other_deals_or_games_are_refused_with_the_reason(tmp_path):
    a = _run(tmp_path, "s3", KK.format(agents='"heuristic", "random"', seed=3))
    b = _run(tmp_path, "s4", KK.format(agents='"heuristic", "random"', seed=4))
    with pytest.raises(StoreError, match="not played on the same deals.*seeds are 3 and 4"):
        compare_runs(a, b)
    g = _run(tmp_path, "ggc", GGC.format(agent="heuristic"))
    with pytest.raises(StoreError, match="kings-kilt games and .* gangs-of-green-city"):
        compare_runs(a, g)
    other = _run(tmp_path, "four", KK.format(agents='"heuristic"', seed=3).replace("[2, 3]", "[4]"))
    with pytest.raises(StoreError, match="share no deal"):
        compare_runs(a, other)
    with pytest.raises(StoreError, match="not a lab results directory"):
        compare_runs(a, tmp_path)


def test_the_cli_prints_the_table_or_json_and_names_what_is_wrong(tmp_path):
    a = _run(tmp_path, "heuristic", GGC.format(agent="heuristic"))
    b = _run(tmp_path, "random", GGC.format(agent="random"))
    res = CliRunner().invoke(lab, ["compare", str(a), str(b)])
    assert res.exit_code == 0, res.output
    assert "| players=2 escalations=4 | 30 |" in res.output and "sign test" in res.output
    res = CliRunner().invoke(lab, ["compare", str(a), str(b), "--json"])
    assert res.exit_code == 0 and '"deals": 30' in res.output
    res = CliRunner().invoke(lab, ["compare", str(a), str(tmp_path)])
    assert res.exit_code != 0 and "not a lab results directory" in res.output
