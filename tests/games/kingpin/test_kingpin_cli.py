"""Kingpin in the terminal (issue 12, "The terminal tells the story"): seeded games played
through `kingmaker play` with scripted input; the final screen names the winner and the
reason, the board has a legend for every symbol."""

from __future__ import annotations

import re

from click.testing import CliRunner

import kingmaker
from kingmaker.cli import main


def _flat(text: str) -> str:
    """The output without panel borders, whitespace collapsed (rich wraps long lines)."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def _play(tmp_path, *args: str, moves: int = 400):
    save = tmp_path / "kingpin.json"
    r = CliRunner().invoke(main, ["play", "kingpin", "--seed", "11", "--bot", "random", "--save", str(save), *args],
                           input="1\n" * moves, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    if not save.exists():  # the input ran out before the end: no record
        return _flat(r.output), None, None
    rec = kingmaker.Record.load(save)
    game = kingmaker.make("kingpin", **rec.options)
    return _flat(r.output), game, rec.replay(game)


def test_cli_final_screen_names_the_winner_and_the_reason(tmp_path):
    """Winning the Game (every win reason has a sentence): the final screen prints outcome's text."""
    out, game, final = _play(tmp_path)
    assert game.is_terminal(final)
    text = game.outcome(final)["text"]
    assert f"player {final.winner} wins" in text
    assert (text[:1].upper() + text[1:] + ".") in out
    assert "Final position" in out


def test_cli_random_start_is_told_and_the_legend_explains_every_symbol(tmp_path):
    """Game Setup: 'In any random way choose the player, who will start the game.' The log
    says who starts; the board's legend names the icons, mafia letters, arrows, snipers and squares."""
    out, game, final = _play(tmp_path, moves=3)
    assert re.search(r"chance: player [01] starts \(chosen at random\)", out)
    for words in ("P pistol, C car, V vest, S support pen", "I Italians, R Russians, Y Yakuza",
                  "number = toughness", "(^ N, > E, v S, < W)", "@ sniper", "* under enemy sniper fire",
                  "area N = player N's area of influence", "~ NML ~ = No Man's Land"):
        assert words in out, words


def test_cli_fixed_first_seat_option_and_face_up_tiles_listed(tmp_path):
    """The option first_player=0 (tests, tournaments) skips the chance node; face-up tiles are
    listed one a line with their toughness and icons by side."""
    out, game, final = _play(tmp_path, "-o", "first_player=0", "-o", "mafias=russian-yakuza", moves=2)
    assert "starts (chosen at random)" not in out
    assert "face up (T toughness, icons top/right/bottom/left, - none):" in out
    assert "Vasili T3 [PPP/-/-/-]" in out
