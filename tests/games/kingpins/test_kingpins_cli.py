"""Kingpins in the terminal (issue 12, "The terminal tells the story"): seeded games played
through `kingmaker play` with scripted input; the final screen gives the ranking rule and
the winner with the reason, the table has a legend for its symbols and says "1 point"."""

from __future__ import annotations

import re

from click.testing import CliRunner

import kingmaker
from kingmaker.cli import main


def _flat(text: str) -> str:
    """The output without panel borders, whitespace collapsed (rich wraps long lines)."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def _play(tmp_path, players: int, seed: int, moves: int = 4000):
    save = tmp_path / "kingpins.json"
    r = CliRunner().invoke(main, ["play", "kingpins", "--players", str(players), "--seed", str(seed),
                                  "--bot", "heuristic", "--save", str(save)],
                           input="1\n" * moves, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    if not save.exists():  # the input ran out before the end: no record
        return r.output, _flat(r.output), None, None
    rec = kingmaker.Record.load(save)
    game = kingmaker.make("kingpins", players=players, **rec.options)
    return r.output, _flat(r.output), game, rec.replay(game)


def test_cli_final_screen_gives_the_ranking_rule_and_the_winner_with_the_reason(tmp_path):
    """Game End: "The player with the lowest total score is the winner ... the tied player who
    won the most rounds is the winner." The final screen says so and names the winner."""
    raw, out, game, final = _play(tmp_path, 3, 2)
    assert game.is_terminal(final)
    o = game.outcome(final)
    assert "Final ranking (lowest total first, then most rounds won):" in out
    assert (o["text"][:1].upper() + o["text"][1:] + ".") in out
    assert f"player {o['winners'][0]}" in o["text"]


def test_cli_legend_for_cards_and_the_red_star_and_readable_abilities(tmp_path):
    """The table's symbols have a legend (the * marks a red card); each ability's text is
    one wrapped, indented entry; counts say "1 card"/"N cards" and "N points"."""
    raw, out, game, final = _play(tmp_path, 2, 5, moves=2)
    assert "* marks a red card" in out and "Fr/Fb Femme Fatale, Hr/Hb Hideout" in out
    assert "M Moretti, D Doyle (red), V Volkov, B Brennan (black)" in out
    assert "Collect: When you play a Bookie, the next player draws one card from the stockpile." in out
    assert re.search(r"Player 1: \d+ cards?, total 0 points, rounds won 0", out)
    assert "1 points" not in out and "1 cards" not in out
    assert "  Collect: When you play a Bookie" in raw  # indented under "Abilities:"
