"""The arena: seat rotation, seeds, statistics, Elo, records that replay, the CLI."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

import kingmaker
from kingmaker import GameError, Record
from kingmaker.agents.arena import (
    elo_ratings,
    format_summary,
    game_seed,
    parse_agents,
    run_arena,
    seat_agents,
    summarize,
    wilson,
    win_shares,
)
from kingmaker.agents.cli import arena

GAMES = kingmaker.available_games()


def test_parse_agents_one_per_seat_and_a_short_list_repeats_its_last():
    assert parse_agents("ismcts:normal, heuristic", 2) == ["ismcts:normal", "heuristic"]
    assert parse_agents("ismcts,random", 4) == ["ismcts", "random", "random", "random"]
    with pytest.raises(GameError, match="3 agents for 2 seats"):
        parse_agents("a,b,c", 2)
    with pytest.raises(GameError, match="no agents"):
        parse_agents(" , ", 2)


def test_seats_rotate_so_every_agent_sits_in_every_seat_equally():
    specs = ["a", "b", "c"]
    seen = {}
    for i in range(6):
        seats = seat_agents(specs, i)
        assert sorted(seats) == specs
        for seat, spec in enumerate(seats):
            seen[(seat, spec)] = seen.get((seat, spec), 0) + 1
    assert seen == {(seat, spec): 2 for seat in range(3) for spec in specs}
    assert seat_agents(specs, 0) == specs
    assert seat_agents(specs, 1) == ["c", "a", "b"]


def test_game_seeds_are_reproducible_and_distinct():
    assert game_seed(3, 7) == game_seed(3, 7)
    assert len({game_seed(s, i) for s in range(4) for i in range(50)}) == 200


def test_wilson_interval_matches_the_formula():
    lo, hi = wilson(5, 10)
    assert math.isclose(lo, 0.2366, abs_tol=1e-4) and math.isclose(hi, 0.7634, abs_tol=1e-4)
    lo, hi = wilson(10, 10)
    assert math.isclose(hi, 1.0) and math.isclose(lo, 0.7225, abs_tol=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_win_shares_split_ties_and_know_cooperative_results():
    assert win_shares([1.0, 0.0, 0.0], False, 1.0) == [1.0, 0.0, 0.0]
    assert win_shares([0.5, 0.5, 0.0], False, 1.0) == [0.5, 0.5, 0.0]
    assert win_shares([0.0, 0.0], False, 1.0) == [0.0, 0.0]  # nobody won
    assert win_shares([1.0, 1.0], True, 1.0) == [1.0, 1.0]
    assert win_shares([0.0, 0.0], True, 1.0) == [0.0, 0.0]


def _games(results):
    return [{"seats": list(seats), "returns": list(ret)} for seats, ret in results]


def test_elo_orders_agents_by_results_and_keeps_the_mean_at_1500():
    games = _games([(("a", "b"), (1.0, 0.0))] * 30 + [(("b", "a"), (1.0, 0.0))] * 10)
    games += _games([(("b", "c"), (1.0, 0.0))] * 30 + [(("c", "b"), (1.0, 0.0))] * 10)
    elo = elo_ratings(games)
    assert elo["a"] > elo["b"] > elo["c"]
    assert math.isclose(sum(elo.values()) / 3, 1500.0, abs_tol=1e-6)
    # 3 to 1 between neighbours: about 191 Elo points (400 log10 3), shrunk a little by the prior.
    assert 150 < elo["a"] - elo["b"] < 200


def test_elo_is_equal_for_even_results_and_finite_for_a_clean_sweep():
    even = elo_ratings(_games([(("a", "b"), (1.0, 0.0)), (("a", "b"), (0.0, 1.0))] * 5))
    assert math.isclose(even["a"], even["b"], abs_tol=1e-6)
    sweep = elo_ratings(_games([(("a", "b"), (1.0, 0.0))] * 20))
    assert math.isfinite(sweep["a"]) and sweep["a"] > sweep["b"]
    assert elo_ratings(_games([(("a", "a"), (1.0, 0.0))])) == {"a": 1500.0}


def test_arena_in_parallel_equals_the_arena_in_one_process_and_records_replay(tmp_path):
    kwargs = dict(game_id="kings-kilt", players=2, agents="heuristic,random", games=4, seed=9)
    one = run_arena(jobs=1, save=tmp_path / "one", **kwargs)
    two = run_arena(jobs=2, save=tmp_path / "two", **kwargs)
    strip = [{k: v for k, v in g.items() if k not in ("think", "longest", "record")} for g in one.games]
    assert strip == [{k: v for k, v in g.items() if k not in ("think", "longest", "record")} for g in two.games]
    assert [g["seats"] for g in one.games] == [seat_agents(["heuristic", "random"], i) for i in range(4)]
    for g in one.games:
        record = Record.load(g["record"])
        assert record.meta["agents"] == g["seats"]
        assert record.seed == g["seed"] == game_seed(9, g["index"])
        game = record.make_game()
        final = record.replay(game)
        assert game.is_terminal(final)
        assert list(game.returns(final)) == g["returns"]


def test_summary_counts_every_seat_game_and_prints_tables():
    result = run_arena("kings-kilt", 2, "heuristic,random", games=6, seed=2)
    summary = summarize(result)
    assert summary["games"] == 6
    by_agent = {a["agent"]: a for a in summary["agents"]}
    assert by_agent["heuristic"]["games"] == by_agent["random"]["games"] == 6
    total_wins = sum(a["wins"] for a in summary["agents"])
    decided = sum(1 for g in result.games if max(g["returns"]) > 0)
    assert math.isclose(total_wins, decided)
    for a in summary["agents"]:
        lo, hi = a["ci95"]
        assert lo <= a["win_rate"] <= hi
        assert a["fair_share"] == 0.5
    assert sorted((s["seat"], s["agent"]) for s in summary["seats"]) == [
        (0, "heuristic"), (0, "random"), (1, "heuristic"), (1, "random")
    ]
    assert all(s["games"] == 3 for s in summary["seats"])
    text = format_summary(summary)
    assert "heuristic" in text and "Elo" in text and "per seat" in text


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_arena_games_end_and_their_records_replay(gid, tmp_path):
    cls = kingmaker.game_class(gid)
    result = run_arena(gid, cls.min_players, "heuristic,random", games=2, seed=1, save=tmp_path)
    summary = summarize(result)
    assert summary["games"] == 2
    if summary["cooperative"]:
        assert 0.0 <= summary["team"]["win_rate"] <= 1.0
    for g in result.games:
        record = Record.load(g["record"])
        game = record.make_game()
        assert list(game.returns(record.replay(game))) == g["returns"]


def test_arena_rejects_bad_input_before_playing():
    with pytest.raises(GameError, match="no agent kind"):
        run_arena("kings-kilt", 2, "genius,random", games=1)
    with pytest.raises(GameError, match="no difficulty level"):
        run_arena("kings-kilt", 2, "ismcts:godlike", games=1)
    with pytest.raises(GameError, match="at least one game"):
        run_arena("kings-kilt", 2, "random", games=0)
    with pytest.raises(GameError, match="no game called"):
        run_arena("chess", 2, "random", games=1)
    with pytest.raises(GameError, match="players"):
        run_arena("kings-kilt", 9, "random", games=1)


def test_cli_arena_prints_json_and_saves_records(tmp_path):
    runner = CliRunner()
    out = runner.invoke(
        arena,
        ["kings-kilt", "--players", "3", "--agents", "heuristic,random", "--games", "3", "--seed", "4",
         "--save", str(tmp_path), "--option", "family_deal=one-per-clan", "--json"],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["options"]["family_deal"] == "one-per-clan"
    assert data["agents_by_seat"] == ["heuristic", "random", "random"]
    assert len(list(tmp_path.glob("*.json"))) == 3


def test_cli_arena_prints_tables_and_clear_errors():
    runner = CliRunner()
    out = runner.invoke(arena, ["kings-kilt", "-a", "random,heuristic", "-g", "2", "-q"])
    assert out.exit_code == 0, out.output
    assert "win rate" in out.output and "per seat" in out.output
    bad = runner.invoke(arena, ["kings-kilt", "-a", "random", "-g", "1", "-o", "family_deal=never"])
    assert bad.exit_code != 0 and "family_deal" in bad.output
    bad = runner.invoke(arena, ["kings-kilt", "-g", "1", "-o", "novalue"])
    assert bad.exit_code != 0 and "key=value" in bad.output


def test_cli_arena_rejects_a_bad_agent_spec_before_its_progress_bar():
    runner = CliRunner()
    bad = runner.invoke(arena, ["kings-kilt", "-a", "ismcts:normal/iterations=lots", "-g", "1"])
    assert bad.exit_code != 0
    assert "iterations='lots' is not a whole number or none" in bad.output
    assert "0/1" not in bad.output  # no bar was drawn for games that never start


def test_a_saved_run_summarises_from_its_records_alone(tmp_path):
    from kingmaker.agents.arena import load_arena

    result = run_arena("kings-kilt", 3, "heuristic,random", games=3, seed=5, save=tmp_path)
    again = load_arena(tmp_path)
    first, second = summarize(result), summarize(again)
    first.pop("seconds"), second.pop("seconds")
    assert first == second
    with pytest.raises(GameError, match="no finished arena game"):
        load_arena(tmp_path / "empty")


def test_run_match_counts_each_seats_cpu_time_its_forked_searches_included():
    from kingmaker.agents.arena import run_match

    game = kingmaker.make("kings-kilt", 2)
    _, st = run_match(game, ["ismcts:hard/seconds=none/iterations=40", "heuristic"], 3)
    assert len(st["cpu"]) == 2 and min(st["cpu"]) >= 0.0
    assert st["searches"][0] > 0 and st["cpu"][0] > st["cpu"][1]
    # hard's two searches of 40 a move (one of them forked), both counted
    assert st["iterations"][0] == 80 * st["searches"][0]
