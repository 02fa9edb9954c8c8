"""Non-fight blocks and the year (rulebook: Game Play, Gym, Cafeteria Trade, Guard Influence,
End of the Year, Solitary Block)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqk_helpers import (
    WHITE,
    chance,
    game,
    get_goods,
    get_pieces,
    goods,
    pieces,
    start,
)

from kingmaker.core.api import CHANCE
from kingmaker.core.errors import IllegalActionError
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings.data import CAFE_B, GYM_B, RIOT
from kingmaker.games.san_quentin_kings.state import (
    DPILE,
    DUSED,
    P_BLOCK,
    P_CAFE,
    P_GUARD,
    P_TURN,
    SCHIPS,
    SCOMM,
    SDECK,
    SDISC,
)


def _skip_action(g, s, block: int):
    """Plays ``block`` with every player doing nothing (a quick way through the year)."""
    s = g.apply(s, A.BLOCK0 + block)
    while True:
        p = g.current_player(s)
        if p == CHANCE:
            s = g.apply(s, g.chance_outcomes(s)[0][0])
        elif p == -2:
            for q in g.acting_players(s):
                s = g.apply(s, A.fist(0, 0, 0), q)
        elif p >= 0 and s.phase != P_BLOCK and s.block != RIOT:
            acts = g.legal_actions(s)
            for a in (A.gym(0, 0, 0), A.CAFE_NONE, A.CHIP_DONE, A.DECLINE, A.PASS):
                if a in acts:
                    s = g.apply(s, a, p)
                    break
            else:
                raise AssertionError(acts)
        else:
            return s


def test_game_play_initiator_chooses_any_unplayed_block() -> None:
    """Game Play: 'He may choose any action block that has not previously been played in the current
    year. At the beginning of a year all action blocks are available.'"""
    g = game(3)
    s = start(g, initiator=1)
    assert g.current_player(s) == 1 and g.legal_actions(s) == list(range(7))
    s = _skip_action(g, s, GYM_B)
    assert s.initiator == 2 and g.legal_actions(s) == [0, 1, 2, 3, 5, 6]
    with pytest.raises(IllegalActionError) as e:
        g.play(s, "choose gym")
    assert "already been played" in str(e.value)
    assert g.view(s, 0)["blocks_played"] == ["Gym"]


def test_game_play_seven_actions_a_year_three_years_then_the_riot() -> None:
    """Game Play: 'One year is divided into 7 actions ... After the 7 actions have been completed a new
    year begins. After 3 years the game concludes with a riot.'"""
    g = game(3)
    s = start(g, initiator=0)
    starts = []
    for year in (1, 2, 3):
        starts.append(s.initiator)
        for b in range(7):
            assert s.year == year
            s = _skip_action(g, s, b)
    assert s.year == 4 and s.block == RIOT and s.phase == P_TURN
    # End of the Year: 'The starting player of the new year is the next clockwise player to the player
    # who finished the last year.' Player 0 began year 1, player 0 + 6 finished it.
    assert starts == [0, 1, 2]


def test_gym_trains_up_to_three_pieces_through_the_court_system() -> None:
    """Gym Block: 'players may put up to a maximum of 3 gang pieces into the gym ... Tarantula pieces are
    built into Scorpion pieces, and Scorpion pieces are built into Cobra pieces. If a Cobra piece is put
    into the gym, they earn a player 1 Respect each ... put directly in the yard.'"""
    g = game(3)
    s = start(g, initiator=0)
    s = g.play(s, "choose gym")
    acts = g.legal_actions(s)
    assert A.gym(1, 1, 1) in acts and A.gym(2, 1, 1) not in acts and A.gym(0, 0, 3) in acts
    s = g.play(s, "gym T1 S1 C1")
    assert get_pieces(s, 0, "cell") == [2, 2, 2]
    assert get_pieces(s, 0, "yard") == [2, 1, 0]  # the Cobra itself, and the new Cobra; a new Scorpion
    assert get_pieces(s, 0, "court") == [3, 4, 5]
    assert get_goods(s, 0, "respect") == 1


def test_gym_court_system_limits_sqk_21() -> None:
    """Gym Block: 'Tarantulas and Scorpions are exchanged for their proper advancement in the court
    system' - an empty court pile stops that exchange (ruling SQK-21: a Scorpion just traded in can
    serve a Tarantula in the same visit)."""
    g = game(3)
    s = pieces(start(g, initiator=0), 0, court=[0, 0, 4])
    s = g.play(s, "choose gym")
    acts = g.legal_actions(s)
    assert A.gym(0, 1, 0) not in acts and A.gym(1, 0, 0) not in acts
    s = pieces(start(g, initiator=0), 0, court=[2, 0, 4])
    s = g.play(s, "choose gym")
    acts = g.legal_actions(s)
    assert A.gym(1, 1, 0) in acts and A.gym(1, 0, 0) not in acts and A.gym(2, 1, 0) not in acts


def test_cafeteria_lays_out_goods_and_sells_one_item_each() -> None:
    """Cafeteria Trade Block: '3 random shank cards and 3 random drug chips are placed face up ... along
    with the top row of new arrivals ... and also a choice of Respect, either 2, 1, or 1 ... players may
    purchase one available item with one commissary cube, or pass ... No one else may buy previously
    purchased goods or respect.'"""
    g = game(3)
    s = start(g, initiator=0)
    s = g.play(s, "choose cafeteria")
    # Three shank cards at once from the deck (4 Cobra, 7 Scorpion, 7 Tarantula are left in it).
    outs = dict(g.chance_outcomes(s))
    assert len(outs) == 10 and abs(sum(outs.values()) - 1) < 1e-12
    assert outs[A.multi(A.CH_SHANKS0, (2, 0, 1))] == pytest.approx(6 * 7 / 816)
    s = chance(g, s, A.multi(A.CH_SHANKS0, (2, 0, 1)))
    s = chance(g, s, A.multi(A.CH_DRUGS0, (1, 0, 2)))
    assert s.phase == P_CAFE
    caf = g.view(s, None)["cafeteria"]
    assert caf == {"shank_cards": [2, 0, 1], "drug_chips": [1, 0, 2], "bus_row": [1, 1, 1], "respect": [2, 1, 1]}
    s = g.play(s, "buy respect 2")
    assert get_goods(s, 0, "respect") == 2 and get_goods(s, 0, "comm") == 1
    assert A.CAFE_R2 not in g.legal_actions(s)
    s = g.play(s, "buy piece cobra")
    assert get_pieces(s, 1, "yard") == [1, 0, 0] and get_pieces(s, 1, "court") == [3, 4, 4]
    s = g.play(s, "buy drug brown")
    assert get_goods(s, 2, "drugs") == [0, 0, 1]
    # Ruling SQK-11: the unsold goods go back to their deck and pile.
    assert s.phase == P_BLOCK
    assert sum(s.supply[SDECK : SDECK + 3]) == 21 - 3 and sum(s.supply[DPILE : DPILE + 3]) == 27
    assert s.supply[SCOMM] == 21 - 6 + 3


def test_cafeteria_needs_a_commissary_cube() -> None:
    """Cafeteria Trade Block: 'purchase one available item with one commissary cube, or pass.'"""
    g = game(3)
    s = goods(start(g, initiator=0), 0, comm=0)
    s = g.play(s, "choose cafeteria")
    while g.current_player(s) == CHANCE:
        s = g.apply(s, g.chance_outcomes(s)[0][0])
    assert g.current_player(s) == 1  # player 0 cannot buy: skipped


def test_guard_influence_buy_chips_for_any_two_goods_until_they_run_out() -> None:
    """Guard Influence Block: 'Bribe chips are purchased here for the cost of either 2 Shank Cards, 2
    Drugs, or 2 Commissary cubes, or a mix ... each player may purchase as many available Bribe chips
    as they want. It is possible the bribe chips will run out before everyone has a chance.'"""
    g = game(3)
    s = start(g, initiator=0)
    s = goods(s, 0, shanks=[1, 0, 0], drugs=[1, 0, 1], comm=4)
    s = g.play(s, "choose guard-influence")
    assert s.phase == P_GUARD and g.current_player(s) == 0
    acts = g.legal_actions(s)
    assert A.chip(0, 3) in acts and A.chip(6, 6) in acts and A.chip(3, 3) not in acts
    s = g.play(s, "buy chip with cobra-shank + green-drug")
    assert s.supply[SDISC] == 1 and s.supply[DUSED] == 1  # spent items to their discard piles
    s = g.play(s, "buy chip with commissary + commissary")
    s = g.play(s, "buy chip with brown-drug + commissary")
    assert get_goods(s, 0, "chips") == 4 and s.supply[SCHIPS] == 0
    # The chips ran out: player 0's turn and then everyone's are over.
    assert s.phase == P_BLOCK


def test_guard_influence_with_no_chips_is_complete_at_once() -> None:
    """Guard Influence Block: 'If the action is initiated and no bribe chips are available, no one
    purchases any and the action is complete.'"""
    g = game(3)
    s = goods(start(g, initiator=0), 0, chips=4)
    assert s.supply[SCHIPS] == 0
    s = g.play(s, "choose guard-influence")
    assert s.phase == P_BLOCK and s.initiator == 1


def _year_end(g, s):
    """Plays the six remaining blocks of year 1 (block 0 already used) with nobody doing anything."""
    for b in range(1, 7):
        s = _skip_action(g, s, b)
    return s


def test_end_of_year_solitary_bonus_two_or_one_each_on_a_tie() -> None:
    """End of the Year / Solitary Block: 'the player with the most pieces in Solitary Confinement earns
    2 Respect ... If there is a tie, all tying players earn 1 Respect.'"""
    g = game(3)
    s = replace(start(g, initiator=0), used=1)
    s = pieces(s, 1, cell=[3, 1, 3], sol=[0, 2, 0])
    s = pieces(s, 2, cell=[2, 3, 3], sol=[1, 0, 0])
    s1 = _year_end(g, s)
    assert [get_goods(s1, p, "respect") for p in range(3)] == [0, 2, 0]
    s = pieces(s, 2, cell=[1, 3, 3], sol=[2, 0, 0])
    s2 = _year_end(g, s)
    assert [get_goods(s2, p, "respect") for p in range(3)] == [0, 1, 1]
    # Gathering: yard and solitary go back to the cell.
    assert get_pieces(s2, 2, "cell") == [3, 3, 3] and get_pieces(s2, 2, "sol") == [0, 0, 0]


def test_end_of_year_handouts_and_six_piece_bonuses_sqk_15() -> None:
    """End of the Year: 'Every player receives 1 commissary cube and 1 shank card. Players that have 6 or
    more Tarantula gang pieces in their cells ... receive 2 commissary cubes; 6 or more Scorpion gang
    pieces receive 2 shank cards' (ruling SQK-15: 2 in total)."""
    g = game(3)
    s = replace(start(g, initiator=0), used=1)
    s = pieces(s, 1, cell=[3, 3, 3], yard=[0, 3, 3], court=[4, 1, 1])
    s = _year_end(g, s)
    assert s.year == 2
    assert [get_goods(s, p, "comm") for p in range(3)] == [3, 4, 3]
    assert [sum(get_goods(s, p, "shanks")) for p in range(3)] == [2, 3, 2]


def test_end_of_year_shanks_and_used_drugs_are_shuffled_back() -> None:
    """End of the Year: 'Players shuffle all shank cards and used drugs back into their respective decks
    and piles.'"""
    g = game(3)
    s = replace(start(g, initiator=0), used=1)
    sup = list(s.supply)
    sup[SDECK] -= 2
    sup[SDISC] += 2
    sup[DPILE + WHITE] -= 3
    sup[DUSED + WHITE] += 3
    s = replace(s, supply=tuple(sup))
    s = _year_end(g, s)
    assert s.supply[SDISC : SDISC + 3] == (0, 0, 0) and s.supply[DUSED : DUSED + 3] == (0, 0, 0)
    assert sum(s.supply[DPILE : DPILE + 3]) == 28


def test_shank_shortage_owed_cards_arrive_with_the_discards_sqk_14() -> None:
    """Shank Block: 'If there are no shank cards left in the deck, players can wait until discards
    arrive later in the game. Players still earn their shanks.' (SQK-14)"""
    g = game(3)
    s = start(g, initiator=0)
    # Every shank card is held by player 2; player 1 is owed one.
    s = goods(s, 0, shanks=[0, 0, 0])
    s = goods(s, 1, shanks=[0, 0, 0])
    s = goods(s, 2, shanks=[7, 7, 7])
    gl = list(s.goods)
    gl[1 * 13 + 10] = 1
    s = replace(s, goods=tuple(gl))
    g.validate_state(s)
    s = _skip_action(g, s, GYM_B)
    assert s.goods[1 * 13 + 10] == 1  # nothing to give
    s = goods(s, 2, shanks=[6, 7, 7])  # one card goes back into the deck
    s = _skip_action(g, s, CAFE_B)
    assert s.goods[1 * 13 + 10] == 0 and get_goods(s, 1, "shanks") == [1, 0, 0]
