"""The kingmaker command: list, rules, play, replay, bench."""

from __future__ import annotations

import json

from click.testing import CliRunner

import kingmaker
from kingmaker.cli import main


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_list_shows_every_game():
    r = run("list")
    assert r.exit_code == 0
    for gid in kingmaker.available_games():
        assert gid in r.output


def test_rules_prints_rulebook_and_rulings():
    r = run("rules", "kings-kilt")
    assert r.exit_code == 0
    assert "Ascending the Throne" in r.output
    assert "KK-1" in r.output


def test_rules_unknown_game_is_a_clear_error():
    r = run("rules", "monopoly")
    assert r.exit_code == 2 and "game/unknown" in r.output and "kings-kilt" in r.output


def test_play_against_bots_with_numbers_and_notation(tmp_path):
    save = tmp_path / "g.json"
    # 'help', an illegal number, then always the first legal move.
    moves = "help\n999\nbetray Bruce f1\n" + "1\n" * 400
    r = run("play", "kings-kilt", "--players", "2", "--seed", "5", "--bot", "random", "--save", str(save),
            input=moves)
    assert r.exit_code == 0, r.output
    assert "Type a move's number" in r.output
    assert "no move 999" in r.output
    assert "Final position" in r.output and "Result:" in r.output
    rec = kingmaker.Record.load(save)
    assert rec.game == "kings-kilt" and rec.result is not None
    assert rec.replay() is not None


def test_play_illegal_entry_says_why():
    r = run("play", "kings-kilt", "--players", "2", "--seed", "5", "--bot", "random",
            input="pass\nquit\n")
    assert "passing is allowed only once a King" in " ".join(r.output.split())


def test_hot_seat_hands_over_between_people():
    r = run("play", "kings-kilt", "--players", "2", "--seat", "0", "--seat", "1", "--seed", "1",
            input="\n1\n\n1\n\nquit\n")
    assert r.output.count("Pass the terminal to player") >= 2


def test_play_bad_option_and_seat_are_clear_errors():
    r = run("play", "kings-kilt", "--option", "family_deal=odd")
    assert r.exit_code == 2 and "accepted values" in " ".join(r.output.split())
    r = run("play", "kings-kilt", "--players", "2", "--seat", "5")
    assert r.exit_code == 2 and "seat 5 does not exist" in " ".join(r.output.split())


def test_replay_from_a_seat_and_spectator(tmp_path):
    g = kingmaker.make("kings-kilt", players=2)
    from kingmaker.agents import RandomAgent

    m = kingmaker.Match(g, [RandomAgent(), RandomAgent()], seed=4)
    m.run()
    path = tmp_path / "r.json"
    m.record().save(path)
    spectator = run("replay", str(path))
    seat1 = run("replay", str(path), "--seat", "1")
    assert spectator.exit_code == 0 and seat1.exit_code == 0
    assert "you are dealt" not in spectator.output
    assert "you are dealt" in seat1.output
    assert "Result:" in spectator.output


def test_bench_json():
    r = run("bench", "kings-kilt", "--seconds", "0.05", "--json")
    assert r.exit_code == 0
    data = json.loads(r.output)
    rows = data["rows"]
    assert [row["players"] for row in rows] == [2, 3, 4]
    assert all(row["decisions_per_s"] > 0 and row["games_per_s"] > 0 for row in rows)


def test_menu_picks_game_players_bots_and_reprompts_a_bad_option():
    ids = kingmaker.available_games()
    k = ids.index("kings-kilt") + 1
    r = run("menu", input=f"{k}\n2\n1\nrandom\nodd\nrulebook\nquit\n")
    assert r.exit_code == 0
    flat = " ".join(r.output.split())
    assert "is not allowed" in flat and "King's Kilt, 2 players" in flat and "Game abandoned" in flat
