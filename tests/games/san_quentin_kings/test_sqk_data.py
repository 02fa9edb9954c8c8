"""Components and set-up (rulebook: Components, Setup, Fight Deck Variant)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqk_helpers import COBRA, game, get_goods, get_pieces, start

import kingmaker
from kingmaker.core.api import CHANCE
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings import data as D
from kingmaker.games.san_quentin_kings.state import SCHIPS, SCOMM, SDECK


def test_components_pieces_per_player_seven_of_each_type_three_active() -> None:
    """Components: '35 Cobra Cylinders (in 5 colors)' etc.; Player Setup: 'Players keep 3 of each
    type ... The remaining gang pieces are placed together next to the board ... in the court system.'"""
    g = game(5)
    s = start(g)
    assert D.PIECES_PER_TYPE * 5 == 35
    for p in range(5):
        assert get_pieces(s, p, "cell") == [3, 3, 3]
        assert get_pieces(s, p, "court") == [4, 4, 4]
        assert get_pieces(s, p, "yard") == [0, 0, 0]


def test_components_shank_cards_seven_per_type_and_drug_chips_by_colour() -> None:
    """Components: '21 Shank Cards (7 of each gang member type)'; '27 Drug Chips (12 green, 9 white,
    7 brown)': the colours add up to 28 and are kept (ruling SQK-2)."""
    assert D.SHANKS_PER_TYPE * 3 == 21
    assert D.DRUG_COUNTS == (12, 9, 7)
    assert sum(D.DRUG_COUNTS) == 28
    assert D.COMMISSARY == 21


def test_fight_deck_variant_guard_count_and_designed_split() -> None:
    """Components: '47 Fight Cards'; Setup: 'Remove 2 Guard Cards'; Fight Deck Variant: 'Use 6 Guard
    Cards for a safer fight deck, or 10 ... 8 is recommended'. The split is designed (ruling SQK-1)."""
    printed = [c["count"] for c in D.FIGHT_CARDS]
    assert sum(printed) == 47
    assert printed[D.GUARD] == 10 and printed[D.GRAVE] == 1
    for guards, size in ((6, 43), (8, 45), (10, 47)):
        g = game(4, guards=guards)
        s = g.new_initial_state()
        assert sum(s.fdeck) == size
        assert s.fdeck[D.GUARD] == guards
    assert game(4).guards == 8
    with pytest.raises(kingmaker.GameError):
        game(4, guards=7)


def test_action_blocks_tie_breakers_as_printed() -> None:
    """Action Blocks: Shank S>T>C, Commissary T>S>C, New Arrival C>S>T, Drug C>T>S; the riot's
    tie-breaker is not printed and is designed Cobra > Scorpion > Tarantula (ruling SQK-3)."""
    tb = {D.BLOCK_NAMES[b]: tuple(D.TYPES[t][0] for t in D.TIE_BREAKER[b]) for b in range(8) if D.IS_FIGHT[b]}
    assert tb == {
        "Shank": ("S", "T", "C"),
        "Commissary": ("T", "S", "C"),
        "New Arrival": ("C", "S", "T"),
        "Drug": ("C", "T", "S"),
        "Riot": ("C", "S", "T"),
    }
    assert [D.IS_FIGHT[b] for b in range(7)] == [True] * 4 + [False] * 3


def test_data_file_marks_designed_values() -> None:
    """Designed component data lives in one data file, marked as designed."""
    raw = json.loads(Path(D.__file__).with_name("san_quentin_kings.json").read_text())
    assert {"fight_deck", "drug_chips", "riot_tie_breaker", "bribe_chips"} <= set(raw["designed"])


@pytest.mark.parametrize("n", [3, 4, 5])
def test_player_setup_goods_and_bribe_chips_twice_the_players(n: int) -> None:
    """Player Setup: 'Each player also receives 1 random shank card, 2 commissary, 1 bribe chip';
    Game Board Setup: 'Use twice as many bribe chips as there are players' (ruling SQK-4: the
    players' chips are among them)."""
    g = game(n)
    s = start(g)
    for p in range(n):
        assert sum(get_goods(s, p, "shanks")) == 1
        assert get_goods(s, p, "comm") == 2
        assert get_goods(s, p, "chips") == 1
        assert get_goods(s, p, "respect") == 0 and get_goods(s, p, "fp") == 0
    assert s.supply[SCHIPS] + n == 2 * n
    assert s.supply[SCOMM] == 21 - 2 * n
    assert sum(s.supply[SDECK : SDECK + 3]) == 21 - n


def test_setup_random_initiating_player_and_random_shank() -> None:
    """Player Setup: 'A player is randomly chosen to be the initiating player'; each shank card is
    random: both are chance nodes with uniform / deck-proportional probabilities."""
    g = game(4)
    s = g.new_initial_state()
    assert g.current_player(s) == CHANCE
    outs = g.chance_outcomes(s)
    assert [a for a, _ in outs] == [A.CH_PLAYER0 + p for p in range(4)]
    assert all(abs(pr - 0.25) < 1e-12 for _, pr in outs)
    s = g.apply(s, A.CH_PLAYER0 + 2)
    assert s.initiator == 2
    outs = g.chance_outcomes(s)
    assert [round(pr, 6) for _, pr in outs] == [round(1 / 3, 6)] * 3
    s = g.apply(s, A.CH_SHANK0 + COBRA)
    assert [round(pr, 6) for _, pr in g.chance_outcomes(s)] == [round(6 / 20, 6), round(7 / 20, 6), round(7 / 20, 6)]


def test_three_player_game_setup_is_the_general_setup() -> None:
    """3 Player Game Setup repeats the general set-up: nothing differs but the bribe chips (6)."""
    g = game(3)
    s = start(g)
    assert s.supply[SCHIPS] == 3 and sum(s.fdeck) == 45


def test_info_declares_simultaneous_chance_and_hidden_information() -> None:
    g = game(3)
    assert g.info.has_simultaneous and g.info.has_chance and not g.info.perfect_information
    assert (g.info.min_players, g.info.max_players) == (3, 5)
    assert "san-quentin-kings" in kingmaker.available_games()
