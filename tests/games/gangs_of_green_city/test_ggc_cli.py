"""The terminal tells the story of a Gangs of Green City game (issue 12, "The terminal tells the story").

Chance events say what they did ("gang card Iago: a sphere of the Tonys", "riot at Iago (war 3/8)",
"ESCALATION!: 3 spheres at ...", "Absent-minded: Professor Vance discards ..."), the board has a
legend for its symbols, and the final screen says whether the team won or lost, and why.
"""

from __future__ import annotations

import re

from click.testing import CliRunner
from ggc_helpers import game

import kingmaker
from kingmaker.cli import main
from kingmaker.core.api import CHANCE


def _run(*args: str, input: str | None = None) -> str:
    r = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return " ".join(r.output.replace("│", " ").split())  # the console wraps long lines, panels frame them


def test_play_a_seeded_game_tells_chance_events_weaknesses_and_the_teams_defeat() -> None:
    """Seed 36, two players, the person in seat 0 (Professor Vance) always takes the first move."""
    out = _run("play", "gangs-of-green-city", "--players", "2", "--seed", "36", "--bot", "heuristic",
               input="1\n" * 500)
    # set-up and the Gang Leader's cards name their spheres
    assert re.search(r"set-up gang card [A-Z][\w' .]+: 3 spheres of the (Tonys|Louies|Left Hand|Officials)", out)
    assert re.search(r"gang card [A-Z][\w' .]+: a sphere of the (Tonys|Louies|Left Hand|Officials)", out)
    assert re.search(r"riot at [A-Z][\w' .]+ \(war \d/8\)", out)
    # an ESCALATION! says its meter, its spheres, its weaknesses and the new layer
    assert re.search(r"hero card ESCALATION! #\d \([\w .]+\): the escalation meter moves to \d \(\d gang cards a turn\)",
                     out)
    assert re.search(r"ESCALATION!: 3 spheres of the [\w ]+ at [A-Z][\w' .]+ \(the bottom gang card\)", out)
    assert "Absent-minded: Professor Vance (player 0) must discard a card" in out
    assert re.search(r"player 0: Absent-minded: Professor Vance discards [A-Z]", out)
    assert re.search(r"the gang discard pile \(\d+ cards\) is shuffled and laid on top of the gang draw pile", out)
    # the board's legend
    assert ("Legend: T The Tonys (red), L The Louies (yellow), H The Left Hand (purple), "
            "O The Officials (blue); T2 = two spheres of The Tonys on that place") in out
    assert "10* = a hero pile of 10 cards still holding its ESCALATION! card" in out
    # the end, with the team's result and the reason
    assert "Game over: the team (players 0 and 1) loses: the eighth gang riot: all-out war (war meter 8/8)" in out
    assert "with 0 of 4 recruitments ended" in out


def _scripted_record(tmp_path) -> str:
    """A record written move by move: Mayor Maple (p0) and Professor Vance (p1); on p1's first
    draw ESCALATION! #2 (Vance) comes up with the bottom card Marconi Docks (Vance again)."""
    g = game(2)
    s = g.new_initial_state()
    actions = []

    def play(text_or_first: str | None, player: int | None = None) -> None:
        nonlocal s
        cp = g.current_player(s)
        a = g.legal_actions(s)[0] if text_or_first is None else g.parse_action(s, text_or_first)
        actions.append((cp, a))
        s = g.play(s, a, None if cp == CHANCE else cp)

    for text in ("cast Mayor Maple", "cast Professor Vance", "gang card Stadium", "gang card Courthouse",
                 "gang card Catacombs", "gang card Swamp Gate", "gang card Lighthouse", "gang card Iago",
                 "gang card DeVos Financial", "gang card Old Cannery", "gang card Clocktower"):
        play(text)
    while s.current == 0 and g.current_player(s) == 0:
        play(None)
    for text in ("hero card Iago", "hero card Lighthouse", "gang card Bellini Bakery", "gang card Union Rail Yard"):
        play(text)
    while g.current_player(s) == 1:
        play(None)
    for text in ("hero card Swamp Gate", "escalation 2", "gang card Marconi Docks"):
        play(text)
    play("gang card Marconi Docks")
    play("gang card Bellini Bakery")
    rec = kingmaker.Record(g.id, 2, dict(g.option_values), tuple(actions))
    path = tmp_path / "ggc.json"
    rec.save(path)
    return str(path)


def test_replay_tells_an_escalation_whose_two_cards_feature_professor_vance(tmp_path) -> None:
    """GGC-12 in the log: the ESCALATION! card's Absent-minded first, then the bottom card's; then
    the discards go on top as a layer, and the Gang Leader's first card riots."""
    out = _run("replay", _scripted_record(tmp_path))
    assert "cast card: player 1 is Professor Vance" in out
    assert "set-up gang card Stadium: 3 spheres of the Officials" in out
    assert "set-up gang card Clocktower: 1 sphere of the Left Hand" in out
    assert "hero card Swamp Gate to Professor Vance (player 1)" in out
    assert "hero card ESCALATION! #2 (Professor Vance): the escalation meter moves to 1 (2 gang cards a turn)" in out
    # Absent-minded takes a card only from a hand of five or more (GGC-16): with one card she keeps it,
    # for the ESCALATION! card and then for its bottom card
    assert ("ESCALATION!: 3 spheres of the Tonys at Marconi Docks (the bottom gang card); Absent-minded: "
            "Professor Vance (player 1) holds too few cards to discard; Absent-minded: Professor Vance "
            "(player 1) holds too few cards to discard; the gang discard pile (12 cards) is shuffled and laid "
            "on top of the gang draw pile") in out
    assert "gang card Marconi Docks: riot at Marconi Docks (war 1/8)" in out
    assert "gang card Bellini Bakery: a sphere of the Tonys" in out
    assert "(the record ends before the game does)" in out


def test_the_outcome_names_the_team_and_the_reason() -> None:
    """End of the Game: 'Players collectively win the game immediately when recruitment for all 4
    Gangs has ended'; defeat is for all players. Reason codes feed the lab's table of end reasons."""
    from ggc_helpers import position

    g = game(3)
    five = ["Iago", "Tony's Pizzeria", "Bellini Bakery", "Marconi Docks", "Sal's Barbershop"]
    s = position(g, cast=["Mayor Maple", "Detective Ruiz", "Nell the Cabbie"],
                 pawns=["Green City High School"] * 3, hands=[five, [], []], ended=0b1110)
    s = g.play(s, "end recruitment Tonys")
    out = g.outcome(s)
    assert out == {"winners": [0, 1, 2], "reason": "recruitment_ended",
                   "text": "the team (players 0, 1 and 2) wins: recruitment into all four gangs has ended "
                           "(0 gangs defeated, war meter 0/8)"}
    figs = g.figures(s)
    assert set(figs) == set(g.info.figures) and figs["recruitments_ended"] == (4.0, 4.0, 4.0)
    assert figs["cards_in_hand"] == (5.0, 0.0, 0.0)  # the fourth ending wins before any discard (GGC-5)
