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


def test_menu_offers_expert_where_a_network_exists_and_asks_again_for_a_bad_bot(monkeypatch, tmp_path):
    ids = kingmaker.available_games()
    k = ids.index("kings-kilt") + 1
    # one person at a 3-player table: two bot seats; 'ismcts:ultra' and 'team:normal' are refused, then
    # the expert is taken (King's Kilt ships a 3-player network).
    r = run("menu", input=f"{k}\n3\n1\nismcts:ultra\nteam:normal\nismcts:expert\nrulebook\nquit\n")
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert "ismcts:hard, ismcts:expert)" in flat
    assert "no difficulty level 'ultra'" in flat and "plays co-operative games" in flat
    assert flat.count("choose one of:") == 2 and "Game abandoned" in flat
    # Where no network lies (here an empty directory in place of the shipped ones), expert is not offered.
    import kingmaker.agents.expert as expert

    monkeypatch.setattr(expert, "NETS_DIR", tmp_path)
    r = run("menu", input=f"{k}\n3\n1\nheuristic\nrulebook\nquit\n")
    flat = " ".join(r.output.split())
    assert "ismcts:hard) [ismcts:normal]" in flat and "ismcts:expert" not in flat, r.output


def test_quitting_a_saved_game_keeps_it_and_resume_goes_on_to_the_end(tmp_path):
    save = tmp_path / "g.json"
    r = run("play", "kings-kilt", "--players", "2", "--seed", "5", "--bot", "random", "--save", str(save),
            input="1\n1\n1\nquit\n")
    assert r.exit_code == 0 and f"kingmaker play --resume {save}" in " ".join(r.output.split())
    first = kingmaker.Record.load(save)
    assert first.result is None and first.seed == 5
    assert first.meta["seats"] == [None, "random"] and first.meta["humans"] == [0]
    assert sum(1 for p, _ in first.actions if p == 0) == 3
    r = run("play", "--resume", str(save), input="1\n" * 400)
    assert r.exit_code == 0, r.output
    assert f"Resumed after {len(first.actions)} recorded actions" in r.output and "Result:" in r.output
    done = kingmaker.Record.load(save)  # saved back to the file it came from
    assert done.result is not None and done.actions[: len(first.actions)] == first.actions
    assert done.replay() is not None and done.meta["seats"] == [None, "random"]


def test_resume_keeps_people_and_bots_unless_told_and_refuses_what_cannot_go_on(tmp_path):
    save = tmp_path / "h.json"
    run("play", "kings-kilt", "--players", "3", "--seat", "1", "--bot", "heuristic", "--bot", "random",
        "--seed", "2", "--save", str(save), input="1\nquit\n")
    rec = kingmaker.Record.load(save)
    assert rec.meta["seats"] == ["heuristic", None, "random"]
    r = run("play", "--resume", str(save), input="quit\n")
    assert "You: player 1" in r.output
    r = run("play", "--resume", str(save), "--seat", "0", "--seat", "1", "--seat", "2", input="quit\n")
    assert "You: player 0, player 1, player 2" in r.output
    r = run("play", "--resume", str(save), "--players", "4")
    assert r.exit_code == 2 and "leave out --players" in " ".join(r.output.split())
    r = run("play", "kingpin", "--resume", str(save))
    assert r.exit_code == 2 and "holds a game of kings-kilt" in " ".join(r.output.split())
    r = run("play")
    assert r.exit_code == 2 and "name the game" in r.output
    g = kingmaker.make("kings-kilt", players=2)
    from kingmaker.agents import RandomAgent

    m = kingmaker.Match(g, [RandomAgent(), RandomAgent()], seed=4)
    m.run()
    over = tmp_path / "over.json"
    m.record().save(over)
    r = run("play", "--resume", str(over))
    assert r.exit_code == 2 and "is over" in r.output and "kingmaker replay" in r.output
    (tmp_path / "junk.json").write_text("{}")
    r = run("play", "--resume", str(tmp_path / "junk.json"))
    assert r.exit_code == 2 and "not a game record" in r.output


def test_quitting_an_unsaved_game_says_how_to_keep_one():
    r = run("play", "kings-kilt", "--players", "2", "--seed", "5", "--bot", "random", input="quit\n")
    assert "Game abandoned" in r.output and "save FILE" in r.output


def test_menu_offers_the_turn_planner_only_where_the_heuristic_has_styles():
    ids = kingmaker.available_games()
    k = ids.index("kings-kilt") + 1
    r = run("menu", input=f"{k}\n2\n1\nrandom\nrulebook\nquit\n")
    prompt = " ".join(r.output.split()).split("Bot for the other seats (")[1].split(")")[0]
    assert "plan" not in prompt.split(", ") and "heuristic" in prompt
    g = ids.index("gangs-of-green-city") + 1
    r = run("menu", input=f"{g}\n2\n1\nplan\n")  # (the input ends at the options: the menu stops there)
    prompt = " ".join(r.output.split()).split("Bot for the other seats (")[1].split(")")[0]
    assert "plan" in prompt.split(", ") and "choose one of" not in r.output
    # the default offered is the game's recommended bot: the planner here, the search elsewhere
    assert "[plan:hard]" in " ".join(r.output.split()).split("Bot for the other seats (")[1]
    r = run("menu", input=f"{k}\n2\n1\nrandom\nrulebook\nquit\n")
    assert "[ismcts:normal]" in " ".join(r.output.split()).split("Bot for the other seats (")[1]
