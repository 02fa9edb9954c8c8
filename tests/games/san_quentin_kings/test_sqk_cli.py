"""San Quentin Kings in the terminal (issue 12, "the terminal tells the story"): seeded games played
through ``kingmaker play`` with scripted input; the printed text is checked."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from kingmaker.cli import main


def play(*args: str, input: str) -> str:
    r = CliRunner().invoke(main, ["play", "san-quentin-kings", *args], input=input, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.output


def flat(output: str) -> str:
    """Returns the output with the panels' borders and line wraps taken out."""
    return " ".join(output.replace("│", " ").split())


@pytest.fixture(scope="module")
def whole_game() -> str:
    """Player 0 takes the first move offered every time (an empty fist in each fight) against two
    heuristic bots, to the end of the riot."""
    return play("--players", "3", "--seed", "4", "--bot", "heuristic", "--bot", "heuristic", input="1\n" * 3000)


def test_each_fight_shows_the_fists_the_placings_and_the_goods(whole_game: str) -> None:
    """Preparing to Fight ("open their hands simultaneously"), Scoring Fight (1st 3, 2nd 2, 3rd 1 of the
    block's goods, a fight point to the first): the log says who opened what and who took what."""
    text = flat(whole_game)
    assert "fists open: player 0 opens an empty fist (out of the fight, immune); player 1 C0 S3 T0" in text
    assert "Shank fight: 1st player 1 (+1 fight point, 3 shank cards), 2nd player 2 (2 shank cards)" in text
    assert re.search(r"New Arrival fight: 1st player \d \(\+1 fight point, picks 3 pieces from the bus\)", text)
    assert "riot: player 1 wins, +2 fight points" in text
    assert "end of year 1:" in text and "the riot begins: every piece fights; player" in text


def test_no_round_0_while_fists_are_chosen(whole_game: str) -> None:
    """A fight has rounds 1 to 3; before them the fists are chosen (and the Drug block is paid)."""
    text = flat(whole_game)
    assert "round 0" not in text
    assert "secret fists being chosen" in text and "round 1 of 3" in text


def test_blocks_show_as_played_on_the_riot_and_final_screens(whole_game: str) -> None:
    """The riot follows the third year, whose seven blocks were all played."""
    text = flat(whole_game)
    final = text[text.index("Final position"):]
    assert "Blocks: all seven played in year 3 (Shank, Commissary, New Arrival, Drug, Gym, Cafeteria Trade, " \
           "Guard Influence); then the riot" in final
    assert "Blocks open" not in final
    riot_views = [m.start() for m in re.finditer(r"San Quentin Kings - RIOT", text)]
    assert len(riot_views) >= 2
    for at in riot_views:
        assert text[at : at + 400].count("Blocks: all seven played in year 3") == 1


def test_the_final_screen_names_the_winner_and_why(whole_game: str) -> None:
    text = flat(whole_game)
    assert "Result: Player 2 wins with 53 respect." in text
    assert "Winner: player 2" in text


def test_legend_and_plurals(whole_game: str) -> None:
    """Every symbol has a legend; counts read "1 fight point", never "1 points" or "card(s)"."""
    text = flat(whole_game)
    assert "Legend: C/S/T = Cobra/Scorpion/Tarantula pieces or shank cards; G/W/B = green baboon/white " \
           "horse/brown horse drug chips; Resp = respect, FP = fight points" in text
    assert "* = you, I = initiator" in text
    assert not re.search(r"\b1 (points|cards|fight points|shank cards|drug chips|pieces)\b", text)
    assert "(s)" not in text


def test_a_fist_is_typed_as_three_numbers_and_opens_with_the_others() -> None:
    """The fist is asked as three numbers (Cobras Scorpions Tarantulas), not as a menu of 64 fists."""
    out = play("--players", "3", "--seed", "1", "--bot", "random", input="1\n2 1 0\nquit\n")
    text = flat(out)
    assert "Type your move: your secret fist: three numbers, Cobras Scorpions Tarantulas from your cell" in text
    assert "fist C0 S0 T1" not in text  # no numbered menu of fists
    assert "player 0: fist C2 S1 T0" in text
    assert re.search(r"fists open: .*player 0 C2 S1 T0", text)
