"""``kingmaker bench --agents``: the rows and their table (no speed is asserted)."""

from __future__ import annotations

import kingmaker
from kingmaker.agents.bench import agent_bench, decision_points, format_agent_bench


def test_decision_points_have_a_real_choice_and_are_spread_over_a_game():
    game = kingmaker.make("kings-kilt", players=2)
    points = decision_points(game, 4)
    assert len(points) == 4
    for s, p in points:
        assert len(game.legal_actions(s, p)) > 1
    assert len({game.to_json(s).__repr__() for s, _ in points}) == 4


def test_agent_bench_reports_speed_and_time_per_move_by_level(monkeypatch):
    from kingmaker.agents import search

    tiny = {k: search.SearchConfig(iterations=3, seconds=None) for k in ("easy", "normal", "hard")}
    monkeypatch.setattr(search, "LEVELS", tiny)
    rows = agent_bench(["kings-kilt"], seconds=0.05, positions=2)
    (row,) = rows
    assert row["game"] == "kings-kilt" and row["players"] == 2 and row["positions"] == 2
    assert row["iterations_per_second"] > 0
    for level in ("easy", "normal", "hard"):
        assert row[f"{level}_iterations"] == 3
        assert 0 < row[f"{level}_mean_s"] <= row[f"{level}_max_s"]
    assert row["normal_iterations_per_cpu_second"] > 0
    text = format_agent_bench(rows)
    assert "kings-kilt" in text and "iter/s" in text and "per second of CPU time" in text
