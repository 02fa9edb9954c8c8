"""The terminal tells the story (issue 12): every event since a person's last decision, a blank
line between turns, a final screen with the outcome and the figures, long move lists grouped,
and a typing hint in place of a huge menu. Each test plays a seeded game through
``kingmaker play`` with scripted input and reads the printed text.
"""

from __future__ import annotations

import re

from click.testing import CliRunner

import kingmaker
from kingmaker.cli import group_moves, main


def play(*args: str, input: str):
    return CliRunner().invoke(main, ["play", *args], input=input, catch_exceptions=False)


def lines_of(output: str) -> list[str]:
    """Returns the printed lines, without the prompt that the typed move follows (no echo here)."""
    return [re.sub(r"^player \d+( \(secret\))?> ", "", line.rstrip()) for line in output.splitlines()]


def story_of(record: kingmaker.Record, observer: int) -> list[str]:
    """Returns the observer's whole log, rebuilt from a saved record."""
    game = record.make_game()
    states = list(record.states(game))
    lines = []
    for (p, a), s in zip(record.actions, states):
        text = game.observe_action(s, a, None if p < 0 else p, observer)
        if text is not None:
            lines.append(text)
    return lines


def test_every_event_since_the_last_decision_is_shown_in_order(tmp_path):
    """Four players: the set-up alone is 35 events before the first decision (more than the 15
    shown before); every line of player 0's log appears, in order, in what was printed."""
    save = tmp_path / "g.json"
    r = play("kings-kilt", "--players", "4", "--seed", "2", "--bot", "random", "--save", str(save),
             input="1\n" * 400)
    assert r.exit_code == 0, r.output
    out = lines_of(r.output)
    first_prompt = next(i for i, line in enumerate(out) if line.startswith("player 0: "))
    assert sum(" dealt " in line for line in out[:first_prompt]) == 3 * 4 + 4 * 4
    expected = story_of(kingmaker.Record.load(save), 0)
    at = 0
    for line in expected:
        while at < len(out) and line not in out[at]:
            at += 1
        assert at < len(out), f"log line {line!r} was never shown"
        at += 1


def test_a_blank_line_between_turns_and_none_inside_a_turn():
    """A turn: one player's decisions and the chance events they cause (the card turned up)."""
    r = play("kings-kilt", "--players", "2", "--seed", "5", "--bot", "random", input="1\n" * 400)
    out = lines_of(r.output)
    bot_turns = [i for i, line in enumerate(out) if line.startswith("player 1: ")]
    assert bot_turns and all(out[i - 1] == "" or out[i - 1].startswith("player 1: ") for i in bot_turns)
    # player 0's ascent and the card it draws stay together.
    own = [i for i, line in enumerate(out) if line.startswith("player 0: ascend")]
    assert any(out[i + 1].endswith("turned up on the draw pile") for i in own)


def test_final_screen_says_who_won_why_and_the_figures(tmp_path):
    """The final screen: the final moves, the outcome sentence (with a tie-break when there is
    one) and a table of the game's figures."""
    save = tmp_path / "g.json"
    r = play("kings-kilt", "--players", "3", "--seed", "8", "--bot", "random", "--save", str(save),
             input="1\n" * 400)
    assert r.exit_code == 0, r.output
    rec = kingmaker.Record.load(save)
    game = rec.make_game()
    final = rec.replay(game)
    text = " ".join(r.output.split())
    tail = text[text.index("Final moves:"):]
    sentence = game.outcome(final)["text"]
    assert "Result: " + sentence[0].upper() + sentence[1:] + "." in tail
    assert "Figures" in tail and "score" in tail and "influence" in tail
    assert "player 0 ┃ player 1 ┃ player 2" in tail
    scores = " │ ".join(str(v) for v in game.figures(final)["score"])
    assert f"│ score │ {scores} │" in tail
    last = story_of(rec, 0)[-1]
    assert last in tail  # the final move is on the final screen


def test_long_move_lists_are_grouped_by_first_word():
    """Kingpin: turns, moves and castlings of the four rotations make lists of 40-70 moves; the
    terminal shows them grouped, and a number still picks a move."""
    r = play("kingpin", "--seed", "3", "--bot", "random", input="1\n" * 600)
    assert r.exit_code == 0, r.output
    assert "moves, grouped; type a number or the whole notation" in r.output
    assert any(line.startswith("turn (") for line in r.output.splitlines())
    assert "Result: " in r.output


def test_group_moves_keeps_numbers_and_fits_the_width():
    names = [f"move a{i} {d}" for i in range(1, 21) for d in "NESW"] + ["pass"]
    lines = group_moves(names, width=60)
    assert lines[0] == "move (80):" and lines[-2] == "pass (1):" and lines[-1].split() == ["81", "pass"]
    assert all(len(line) <= 60 for line in lines)
    assert "1 a1 N" in lines[1] and "80 a20 W" in " ".join(lines)


def test_a_typing_hint_replaces_a_huge_menu():
    """San Quentin Kings' fists: the game's move_prompt is shown instead of 100+ numbered fists,
    and the typed notation (three numbers) is accepted."""
    r = play("san-quentin-kings", "--players", "3", "--seed", "1", "--bot", "random",
             input="1\n1 0 0\nquit\n")  # choose a block, then a fist of one Cobra
    text = " ".join(r.output.split())
    assert "Type your move: your secret fist: three numbers" in text
    assert "fist C0 S0 T1" not in text  # no numbered menu of fists
    assert "player 0 (secret)> player 0: fist C1 S0 T0" in text  # '1 0 0' typed and accepted
    assert "Game abandoned" in text


def test_hot_seat_final_screen_tells_the_spectator_story():
    """With several people at one terminal the final screen shows the public story since the last
    person's decision (no one's secrets), then the outcome."""
    r = play("kings-kilt", "--players", "2", "--seat", "0", "--seat", "1", "--seed", "4", input="\n1\n" * 400)
    assert r.exit_code == 0, r.output
    tail = r.output[r.output.index("Final moves:"):]
    assert "you are dealt" not in tail
    assert "Result: " in tail and "Figures" in tail
    assert any(line.startswith(("player 0: ", "player 1: ")) for line in tail.splitlines())


def test_replay_ends_with_the_outcome_and_figures(tmp_path):
    """`kingmaker replay` of a finished game ends like the final screen: who won, why, the figures."""
    save = tmp_path / "g.json"
    play("kings-kilt", "--players", "2", "--seed", "6", "--bot", "random", "--save", str(save), input="1\n" * 400)
    rec = kingmaker.Record.load(save)
    game = rec.make_game()
    sentence = game.outcome(rec.replay(game))["text"]
    r = CliRunner().invoke(main, ["replay", str(save), "--seat", "1"], catch_exceptions=False)
    text = " ".join(r.output.split())
    assert "Result: " + sentence[0].upper() + sentence[1:] + "." in text
    assert "Figures" in text and "influence left" in text
