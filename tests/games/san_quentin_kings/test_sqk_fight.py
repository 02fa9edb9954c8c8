"""Fights: initiating order, payment, secret fists, rounds, fight cards and bribe chip actions
(rulebook: Play an Action, Fight, Fight and Shank Cards, Bribe Chip Actions, Collect and Clean)."""

from __future__ import annotations

import pytest
from sqk_helpers import (
    BROWN,
    COBRA,
    GREEN,
    SCORPION,
    TARANTULA,
    WHITE,
    chance,
    fight,
    game,
    get_goods,
    get_pieces,
    goods,
    pieces,
    start,
)

from kingmaker.core.api import CHANCE, SIMULTANEOUS
from kingmaker.core.errors import IllegalActionError, NotYourTurnError
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings.data import (
    COMM_B,
    DRUG_B,
    GRAVE,
    GUARD,
    PAROLE,
    SHANK_CODE0,
    STEAL_DRUG,
    STEAL_SHANK,
)
from kingmaker.games.san_quentin_kings.fight import strength
from kingmaker.games.san_quentin_kings.state import (
    P_BLOCK,
    P_DRAWN,
    P_FISTS,
    P_PAROLE,
    P_STOLEN,
    P_TOSOL,
    P_TURN,
    P_VIC_DRUG,
    SCHIPS,
    SDISC,
)

C1, S1, T1 = 0, 1, 2
CARD = A.CH_CARD0


def _no_chips(g, s):
    for p in range(g.num_players):
        s = goods(s, p, chips=0)
    return s


def test_initiating_order_fight_starts_left_of_initiator_and_ends_with_initiator() -> None:
    """Initiating Order: 'During a fight action block the player to the left of the initiating player
    begins the action and play will continue in clockwise order, ending with the initiating player.'"""
    g = game(4)
    s = _no_chips(g, start(g, initiator=2))
    s = fight(g, s, COMM_B, {p: [1, 1, 1] for p in range(4)})
    order = []
    for _ in range(4):
        p = g.current_player(s)
        order.append(p)
        s = g.apply(s, A.SHANK0 + COBRA if get_goods(s, p, "shanks")[COBRA] else A.DRAW, p)
        while g.current_player(s) == CHANCE:
            s = chance(g, s, CARD + C1)
    assert order == [3, 0, 1, 2]
    assert s.rnd == 2 and g.current_player(s) == 3


def test_initiating_order_non_fight_starts_with_the_initiator() -> None:
    """Initiating Order: 'In a non-fight action block the initiating player will begin the action and
    play continues in clockwise order with each player having one turn.'"""
    g = game(4)
    s = start(g, initiator=2)
    s = g.play(s, "choose gym")
    order = []
    while s.phase != P_BLOCK:
        p = g.current_player(s)
        order.append(p)
        s = g.play(s, "gym T0 S0 C1")
    assert order == [2, 3, 0, 1]
    assert s.initiator == 3


def test_payment_drug_block_pay_first_starting_with_the_initiator() -> None:
    """Payment: 'Payment always begins with the initiating player (even in fight actions)'; Drug Block:
    'All fighting players must first pay either 1 Commissary Cube or 1 Shank'."""
    g = game(4)
    s = start(g, initiator=1, shanks=[COBRA, SCORPION, TARANTULA, COBRA])
    s = g.play(s, "choose drug")
    assert g.current_player(s) == 1
    assert g.legal_actions(s) == [A.PAY_COMM, A.PAY_SHANK0 + SCORPION, A.DECLINE]
    s = g.play(s, "pay scorpion-shank")
    assert s.supply[SDISC + SCORPION] == 1 and sum(get_goods(s, 1, "shanks")) == 0
    status = [f["status"] for f in g.view(s, 0)["fight"]["fists"]]
    assert status == ["to pay", "paid", "to pay", "to pay"]
    s = g.play(s, "pay commissary")  # player 2
    assert get_goods(s, 2, "comm") == 1
    s = g.play(s, "decline")  # player 3
    s = g.play(s, "decline")  # player 0
    assert g.current_player(s) == SIMULTANEOUS
    assert g.acting_players(s) == (1, 2)
    with pytest.raises(NotYourTurnError):
        g.play(s, "fist C1 S0 T0", player=3)


def test_drug_payment_skips_a_player_with_an_empty_cell_sqk_18() -> None:
    """Ruling SQK-18: a player with no piece in the cell is not asked to pay."""
    g = game(3)
    s = pieces(start(g, initiator=0), 0, cell=[0, 0, 0], yard=[3, 3, 3])
    s = g.play(s, "choose drug")
    assert g.current_player(s) == 1


def test_preparing_to_fight_secret_fists_revealed_together() -> None:
    """Preparing to Fight: 'players secretly select any of their active gang pieces from their cell
    ... When everyone has selected, they must ... open their hands simultaneously.'"""
    g = game(3)
    s = start(g, initiator=0)
    s = g.play(s, "choose shank")
    assert s.phase == P_FISTS and g.current_player(s) == SIMULTANEOUS
    assert g.acting_players(s) == (0, 1, 2)
    assert len(g.legal_actions(s, 0)) == 4 * 4 * 4
    s = g.play(s, "fist C2 S0 T1", player=2)
    assert g.acting_players(s) == (0, 1)
    # Nobody else sees the committed fist; its owner does.
    for q in (0, 1, None):
        v = g.view(s, q)
        entry = v["fight"]["fists"][2]
        assert entry["status"] == "committed" and "fist" not in entry
        assert "fist" not in v.get("yours", {})
    assert g.view(s, 2)["yours"]["fist"] == [2, 0, 1]
    assert g.observe_action(s, A.fist(1, 1, 1), 1, 0) == "player 1 commits a fist"
    # The cell still shows all pieces until the reveal.
    assert get_pieces(s, 2, "cell") == [3, 3, 3]
    s = g.play(s, "fist C0 S0 T0", player=0)
    s = g.play(s, "fist C0 S3 T0", player=1)
    assert s.phase == P_TURN
    assert get_pieces(s, 2, "fight") == [2, 0, 1] and get_pieces(s, 2, "cell") == [1, 3, 2]
    assert get_pieces(s, 1, "fight") == [0, 3, 0]
    # 'If someone opens an empty fist they are passing from the fight and are immune.'
    assert not s.inflight & 1
    assert g.current_player(s) == 1


def test_empty_fist_is_immune_to_bribes() -> None:
    """Preparing to Fight: an empty fist is 'immune to anything that may occur'; Bribe Chip Actions:
    'Bribe chips can't be used on players not represented in the current fight.'"""
    g = game(3)
    s = start(g, initiator=2)
    s = goods(s, 2, comm=5)
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    acts = g.legal_actions(s)  # player 0's turn
    assert A.STEAL0 + 2 * 3 + 2 not in acts  # player 2 (not fighting) holds 5 commissary
    assert A.STEAL0 + 1 * 3 + 2 in acts
    assert all(not (A.TAKE0 <= a < A.FREE0) or (a - A.TAKE0) // 15 != 2 for a in acts)


def test_fight_rounds_one_one_two_cards() -> None:
    """Fight: 'In round 1, one fight card or shank card must be played ... The same applies in round 2
    ... In round 3 two fight cards or two shank cards, or a mix, must be played.'"""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    s = goods(s, 0, shanks=[4, 0, 0])
    s = fight(g, s, COMM_B, {0: [1, 0, 0]})
    s = g.play(s, "shank cobra")
    assert s.rnd == 2 and g.current_player(s) == 0  # the only fighter: round 2 at once
    s = g.play(s, "shank cobra")
    assert s.rnd == 3
    s = g.play(s, "shank cobra")
    assert s.rnd == 3 and s.need == 1 and g.current_player(s) == 0
    assert A.PASS not in g.legal_actions(s)
    s = g.play(s, "draw")
    s = chance(g, s, CARD + C1)
    # Three rounds are over: the fight is scored (1st place: 1 fight point).
    assert get_goods(s, 0, "fp") == 1
    while g.current_player(s) == CHANCE:  # the three shank cards won
        s = g.apply(s, g.chance_outcomes(s)[0][0])
    assert strength(s, 0) == [0, 0, 0] and s.phase == P_BLOCK  # cleaned up


def test_pass_is_final_and_strength_remains() -> None:
    """Fight, PASS: 'They are done fighting and cannot enter back into the fight, but their strength,
    built by pieces and cards, remains in their fight area.'"""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    s = fight(g, s, COMM_B, {0: [2, 0, 0], 1: [1, 0, 0]}, cards={0: (C1,)})
    s = g.play(s, "pass")  # player 0
    assert s.passed == 1
    s = g.play(s, "draw")  # player 1
    s = chance(g, s, CARD + C1)
    assert s.rnd == 2 and g.current_player(s) == 1  # player 0 is skipped
    assert strength(s, 0) == [3, 0, 0]


def test_fight_ends_when_all_players_have_passed() -> None:
    """Fight: 'When all three fight rounds are complete, or all players have passed, then the scoring
    of the fight will be determined.'"""
    g = game(3)
    s = start(g, initiator=2)
    s = fight(g, s, COMM_B, {0: [2, 0, 0], 1: [1, 0, 0]})
    s = g.play(s, "pass")
    s = g.play(s, "pass")
    # Scored at once, without rounds 2 and 3: 1st 1 fight point + 3 commissary, 2nd 2 commissary.
    assert s.phase == P_BLOCK and get_goods(s, 0, "fp") == 1
    assert get_goods(s, 0, "comm") == 5 and get_goods(s, 1, "comm") == 4


def test_shank_cards_count_like_fight_cards_and_zero_without_a_piece() -> None:
    """Shank Cards: 'Shank cards have the same value as the matching fight deck cards, +1 strength ...
    Players can play shank cards if they don't have matching gang member pieces. The shank card just
    counts as 0.'"""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    s = goods(s, 0, shanks=[1, 0, 1])
    s = fight(g, s, COMM_B, {0: [2, 0, 0], 1: [1, 0, 0]})
    s = g.play(s, "shank tarantula")
    assert strength(s, 0) == [2, 0, 0]
    assert s.cards[0] == (SHANK_CODE0 + TARANTULA,)


def test_guard_card_sends_an_own_piece_to_solitary_sqk_10() -> None:
    """Fight and Shank Cards, Guard: 'The drawing player must choose any one of their own gang pieces
    involved in the current fight and place it in the solitary confinement block.'"""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    s = fight(g, s, COMM_B, {0: [1, 2, 0], 1: [1, 0, 0]})
    s = g.play(s, "draw")
    s = chance(g, s, CARD + GUARD)
    assert s.phase == P_TOSOL and g.legal_actions(s) == [A.TOSOL0 + COBRA, A.TOSOL0 + SCORPION]
    s = g.play(s, "solitary scorpion")
    assert get_pieces(s, 0, "sol") == [0, 1, 0] and get_pieces(s, 0, "fight") == [1, 1, 0]
    assert g.current_player(s) == 1
    # With a single type there is nothing to choose.
    s = g.play(s, "draw")
    s = chance(g, s, CARD + GUARD)
    assert get_pieces(s, 1, "sol") == [1, 0, 0] and get_pieces(s, 1, "fight") == [0, 0, 0]


def test_parole_card_removes_a_piece_and_pays_one_commissary() -> None:
    """Fight and Shank Cards, Parole: 'remove it from the game ... The player immediately earns 1
    commissary cube.'"""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    s = fight(g, s, COMM_B, {0: [1, 0, 1], 1: [1, 0, 0]})
    s = g.play(s, "draw")
    s = chance(g, s, CARD + PAROLE)
    assert s.phase == P_PAROLE
    s = g.play(s, "parole tarantula")
    assert get_pieces(s, 0, "fight") == [1, 0, 0]
    assert get_goods(s, 0, "comm") == 3
    assert g.view(s, 1)["gangs"][0]["removed"] == [0, 0, 1]


def test_steal_drug_card_random_drug_from_a_chosen_player_sqk_12() -> None:
    """Fight and Shank Cards, Steal Drug: 'The drawing player must steal one random face down drug from
    a player. If no players have drugs, the player takes one randomly from the drug pile.' The victims
    are the other players in this fight (an empty fist is immune: test_sqk_immunity.py)."""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    s = goods(s, 1, drugs=[1, 0, 2])
    s = goods(s, 2, drugs=[0, 1, 0])
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0], 2: [0, 1, 0]})
    s = g.play(s, "draw")
    s = chance(g, s, CARD + STEAL_DRUG)
    assert s.phase == P_VIC_DRUG and g.legal_actions(s) == [A.VICDRUG0 + 1, A.VICDRUG0 + 2]
    s = g.play(s, "steal drug from p1")
    assert g.current_player(s) == CHANCE
    outs = dict(g.chance_outcomes(s))
    assert outs == {A.CH_DRUG0 + GREEN: pytest.approx(1 / 3), A.CH_DRUG0 + BROWN: pytest.approx(2 / 3)}
    s = chance(g, s, A.CH_DRUG0 + BROWN)
    assert get_goods(s, 0, "drugs") == [0, 0, 1] and get_goods(s, 1, "drugs") == [1, 0, 1]
    # Nobody else holds drugs: from the pile.
    s2 = _no_chips(g, start(g, initiator=2))
    s2 = fight(g, s2, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    s2 = g.play(s2, "draw")
    s2 = chance(g, s2, CARD + STEAL_DRUG)
    assert [round(p, 4) for _, p in g.chance_outcomes(s2)] == [round(12 / 28, 4), round(9 / 28, 4), round(7 / 28, 4)]
    s2 = chance(g, s2, A.CH_DRUG0 + WHITE)
    assert get_goods(s2, 0, "drugs") == [0, 1, 0]


def test_steal_shank_card_may_be_used_immediately_sqk_12() -> None:
    """Fight and Shank Cards, Steal Shank: 'The stolen shank may be used immediately in the fight round
    or held for later use.'"""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2, shanks=[COBRA, TARANTULA, COBRA]))
    s = goods(s, 2, shanks=[0, 0, 0])
    s = fight(g, s, COMM_B, {0: [0, 0, 1], 1: [1, 0, 0]})
    s = g.play(s, "draw")
    s = chance(g, s, CARD + STEAL_SHANK)
    assert g.current_player(s) == CHANCE  # only player 1 holds a shank: no choice
    s = chance(g, s, A.CH_SHANK0 + TARANTULA)
    assert s.phase == P_STOLEN and g.view(s, 0)["yours"]["stolen_shank"] == "Tarantula"
    assert "stolen_shank" not in g.view(s, 1)["yours"]
    s = g.play(s, "play stolen")
    assert strength(s, 0) == [0, 0, 2]
    assert g.current_player(s) == 1  # the stolen shank was an extra card


def test_grave_card_reshuffles_the_whole_fight_deck_at_clean_up() -> None:
    """Collect and Clean: 'If the Grave Fight Card was drawn during the fight, the entire fight deck and
    discards are shuffled.'"""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    from dataclasses import replace
    deck = list(s.fdeck)
    deck[GUARD] -= 3
    s = replace(s, fdeck=tuple(deck), fdisc=tuple(3 if k == GUARD else 0 for k in range(11)))
    s = fight(g, s, COMM_B, {0: [1, 0, 0]})
    s = g.play(s, "draw")
    s = chance(g, s, CARD + GRAVE)
    assert g.view(s, 0)["fight_deck"]["grave_drawn"]
    s = g.play(s, "pass")
    assert s.phase == P_BLOCK and sum(s.fdisc) == 0 and sum(s.fdeck) == 45
    # Without the Grave, used cards stay in the discards.
    s2 = _no_chips(g, start(g, initiator=2))
    s2 = fight(g, s2, COMM_B, {0: [1, 0, 0]})
    s2 = chance(g, g.play(s2, "draw"), CARD + C1)
    s2 = g.play(s2, "pass")
    assert sum(s2.fdisc) == 1 and sum(s2.fdeck) == 44


def test_fight_deck_runs_out_discards_are_shuffled() -> None:
    """End of the Year: 'The fight deck is shuffled only after the grave card has been drawn or there
    are no more cards to be drawn.'"""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    from dataclasses import replace
    s = replace(s, fdeck=(0,) * 11, fdisc=g.deck0)
    s = fight(g, s, COMM_B, {0: [1, 0, 0]})
    s = g.play(s, "draw")
    assert sum(s.fdeck) == 45 and sum(s.fdisc) == 0


def test_collect_and_clean_pieces_to_yard_solitary_stays_chips_back() -> None:
    """Collect and Clean: 'Each gang member piece that was used in the fight is placed in the yard ...
    All gang pieces in solitary confinement ... remain until the end of the year. All used bribe chips
    are placed back into the guard influence action block.'"""
    g = game(3)
    s = start(g, initiator=2)
    s = fight(g, s, COMM_B, {0: [2, 1, 0], 1: [1, 0, 0]})
    s = g.play(s, "bribe extra card")
    assert s.supply[SCHIPS] == 4
    s = g.play(s, "draw")
    s = chance(g, s, CARD + GUARD)
    s = g.play(s, "solitary scorpion")
    s = g.play(s, "draw")
    s = chance(g, s, CARD + C1)
    s = g.play(s, "pass")  # player 1
    s = g.play(s, "pass")  # player 0, round 2
    assert s.phase == P_BLOCK
    assert get_pieces(s, 0, "yard") == [2, 0, 0] and get_pieces(s, 0, "sol") == [0, 1, 0]
    assert get_pieces(s, 1, "yard") == [1, 0, 0]


# ---- bribes ------------------------------------------------------------------------------


def test_bribe_once_per_round_only_on_own_fighting_turn() -> None:
    """Bribe Chip Actions: 'One bribe chip can be used by a player at any time during his turn in each
    round of fighting. A bribe chip can't be used by a player who passes during his turn.'"""
    g = game(3)
    s = start(g, initiator=2)
    s = goods(s, 0, chips=3)
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    assert A.ADD in g.legal_actions(s) and A.PASS in g.legal_actions(s)
    s = g.play(s, "bribe extra card")
    acts = g.legal_actions(s)
    assert A.PASS not in acts  # a bribe means fighting
    assert not any(A.BRIBE_FIRST <= a <= A.BRIBE_LAST for a in acts)
    with pytest.raises(IllegalActionError):
        g.play(s, "bribe extra card")
    s = g.play(s, "draw")
    s = chance(g, s, CARD + C1)
    assert s.phase == P_TURN and s.need == 1  # the extra card
    s = g.play(s, "draw")
    s = chance(g, s, CARD + C1)
    s = g.play(s, "pass")  # player 1
    # Round 2: player 0 may bribe again.
    assert A.ADD in g.legal_actions(s) and get_goods(s, 0, "chips") == 2


def test_bribe_example_1_redraw_a_guard_card_sqk_9() -> None:
    """Bribe Example 1: 'Ross draws a guard card ... He does not like this prospect and discards the
    guard card. He spends one bribe chip to redraw a fight card.'"""
    g = game(3)
    ross = 0
    s = start(g, initiator=2)
    s = fight(g, s, COMM_B, {ross: [1, 1, 0], 1: [1, 0, 0]})
    s = g.play(s, "draw")
    s = chance(g, s, CARD + GUARD)
    assert s.phase == P_DRAWN and g.legal_actions(s) == [A.KEEP, A.REDRAW]
    assert g.view(s, 1)["fight"]["drawn_card"] == "Guard"
    s = g.play(s, "bribe redraw")
    assert s.fdisc[GUARD] == 1 and s.cards[ross] == () and get_goods(s, ross, "chips") == 0
    assert g.legal_actions(s) == [A.DRAW, A.SHANK0 + COBRA]  # redraw or use a shank card
    s = g.play(s, "draw")
    s = chance(g, s, CARD + S1)
    assert strength(s, ross) == [1, 2, 0] and get_pieces(s, ross, "sol") == [0, 0, 0]


def test_bribe_example_2_bribe_an_opponents_piece_activates_cards_sqk_13() -> None:
    """Bribe Example 2: 'Sarah has drawn 3 Tarantula strength cards but has no Tarantula pieces
    represented. She bribes one of Keith's Tarantula pieces into her fight area, now activating all of
    her Tarantula cards. She now has a strength of 4 Tarantula.' After a fight the piece goes to its
    owner's yard."""
    g = game(3)
    keith, sarah = 0, 1
    s = start(g, initiator=keith)
    s = goods(s, sarah, chips=1)
    s = fight(g, s, COMM_B, {keith: [0, 0, 2], sarah: [1, 0, 0]}, cards={sarah: (T1, T1, T1)})
    assert g.current_player(s) == sarah and strength(s, sarah) == [1, 0, 0]
    s = g.play(s, "bribe take tarantula of p0 from p0")
    assert strength(s, sarah) == [1, 0, 4] and strength(s, keith) == [0, 0, 1]
    assert s.bribed == ((sarah, keith, TARANTULA),)
    assert g.view(s, 2)["fight"]["areas"][1]["bribed_in"] == [{"type": "Tarantula", "owner": 0}]
    s = g.play(s, "shank cobra")  # Sarah's starting shank
    # Keith bribes his piece back.
    s = g.play(s, "bribe take tarantula of p0 from p1")
    assert s.bribed == () and strength(s, keith) == [0, 0, 2]
    s = g.play(s, "shank cobra")  # counts 0: Keith has no Cobra in the fight
    s = g.play(s, "pass")
    s = g.play(s, "pass")
    assert get_pieces(s, keith, "yard") == [0, 0, 2]


def test_bribed_piece_returns_to_its_owners_yard_after_the_fight() -> None:
    """Bribe Chip Actions 3: 'After a fight, the bribed gang piece is placed in the yard, and is
    considered loyal to its original gang.'"""
    g = game(3)
    s = start(g, initiator=2)
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [0, 2, 0]})
    s = g.play(s, "bribe take scorpion of p1 from p1")
    s = g.play(s, "pass") if A.PASS in g.legal_actions(s) else g.play(s, "shank cobra")
    s = g.play(s, "pass")  # player 1
    s = g.play(s, "pass")  # player 0, round 2
    assert get_pieces(s, 1, "yard") == [0, 2, 0] and get_pieces(s, 0, "yard") == [1, 0, 0]


def test_bribe_on_a_passed_player() -> None:
    """Bribe Chip Actions: 'Bribe chips can be used on any player that has gang pieces involved in the
    current fight, even on players who have passed.'"""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    s = goods(s, 1, chips=1)
    s = fight(g, s, COMM_B, {0: [2, 0, 0], 1: [1, 0, 0]}, passed=(0,), pos=1)
    assert g.current_player(s) == 1
    s = g.play(s, "bribe kill cobra of p0 at p0")
    assert get_pieces(s, 0, "fight") == [1, 0, 0]
    assert g.view(s, 2)["gangs"][0]["removed"] == [1, 0, 0]


def test_bribe_piece_from_solitary_activates_cards() -> None:
    """Bribe Chip Actions 4: 'take one of their own gang pieces from solitary confinement and add it to
    their gang strength in the current fight ... can also be used to activate previously drawn cards.'"""
    g = game(3)
    s = start(g, initiator=2)
    s = pieces(s, 0, cell=[3, 2, 3], sol=[0, 1, 0])
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]}, cards={0: (S1,)})
    assert strength(s, 0) == [1, 0, 0]
    s = g.play(s, "bribe free scorpion")
    assert strength(s, 0) == [1, 2, 0] and get_pieces(s, 0, "sol") == [0, 0, 0]


def test_bribe_steal_a_random_good_or_from_the_supply_sqk_13() -> None:
    """Bribe Chip Actions 5: 'Shanks and Drugs are to be stolen in a random, face down manner. If no
    player owns the desired good, a player may steal one good from either the shank deck, drug deck, or
    commissary pile.'"""
    g = game(3)
    s = start(g, initiator=2, shanks=[COBRA, SCORPION, COBRA])
    s = goods(s, 1, shanks=[0, 2, 1])
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    acts = g.legal_actions(s)
    assert A.STEAL0 + 1 * 3 + 0 in acts and A.STEAL0 + 1 * 3 + 2 in acts
    assert A.STEALSUP0 + 1 in acts and A.STEALSUP0 + 0 not in acts  # nobody in the fight holds drugs
    s = g.play(s, "bribe steal shank from p1")
    assert dict(g.chance_outcomes(s)) == {
        A.CH_SHANK0 + SCORPION: pytest.approx(2 / 3),
        A.CH_SHANK0 + TARANTULA: pytest.approx(1 / 3),
    }
    s = chance(g, s, A.CH_SHANK0 + TARANTULA)
    assert get_goods(s, 0, "shanks") == [1, 0, 1] and get_goods(s, 1, "shanks") == [0, 2, 0]
    # The thief and the victim see the card; the third player only that a shank was stolen.
    t = g.play(start(g, initiator=2), "choose gym")
    del t


def test_bribe_kill_removes_a_piece_from_the_game() -> None:
    """Bribe Chip Actions 6: 'Players can use a bribe chip to kill any one gang piece of a single
    player in the current fight. After the gang piece is chosen, it is removed from the game entirely.'"""
    g = game(3)
    s = start(g, initiator=2)
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [0, 1, 1]})
    s = g.play(s, "bribe kill tarantula of p1 at p1")
    s = g.play(s, "pass") if A.PASS in g.legal_actions(s) else g.play(s, "shank cobra")
    s = g.play(s, "pass")
    s = g.play(s, "pass")
    assert get_pieces(s, 1, "yard") == [0, 1, 0]
    assert g.view(s, 0)["gangs"][1]["removed"] == [0, 0, 1]


def test_bribe_cannot_target_yourself_or_pieces_outside_the_fight() -> None:
    g = game(3)
    s = start(g, initiator=2)
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [0, 1, 0]})
    with pytest.raises(IllegalActionError) as e:
        g.play(s, "bribe kill cobra of p0 at p0")
    assert "bribe" in str(e.value)
    with pytest.raises(IllegalActionError):
        g.play(s, "bribe take cobra of p1 from p1")
    assert s == fight(g, start(g, initiator=2), COMM_B, {0: [1, 0, 0], 1: [0, 1, 0]})


def test_a_gang_without_strength_does_not_place_sqk_7() -> None:
    """Ruling SQK-7: a player in the fight whose every piece is gone has no strength and no place."""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    s = g.play(s, "draw")
    s = chance(g, s, CARD + GUARD)  # player 0's only piece goes to solitary
    assert strength(s, 0) == [0, 0, 0] and g.ranking(s) == [1]
    s = g.play(s, "pass")
    s = g.play(s, "pass")
    assert get_goods(s, 0, "comm") == 2 and get_goods(s, 1, "comm") == 5


def test_steal_is_seen_by_thief_and_victim_only() -> None:
    """Bribe Chip Actions 5: stolen 'in a random, face down manner' - the log names the card only to
    the two players concerned."""
    g = game(3)
    s = start(g, initiator=2, shanks=[COBRA, SCORPION, COBRA])
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    s = g.play(s, "bribe steal shank from p1")
    a = A.CH_SHANK0 + SCORPION
    assert g.observe_action(s, a, None, 0) == "player 0 steals a scorpion shank card from player 1"
    assert g.observe_action(s, a, None, 1) == "player 0 steals a scorpion shank card from player 1"
    assert g.observe_action(s, a, None, 2) == "player 0 steals a shank card from player 1"


def test_bribe_steal_commissary_moves_one_cube() -> None:
    """Bribe Chip Actions 5: steal one 'Commissary' from a single player."""
    g = game(3)
    s = start(g, initiator=2)
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    s = g.play(s, "bribe steal commissary from p1")
    assert get_goods(s, 0, "comm") == 3 and get_goods(s, 1, "comm") == 1


def test_bribed_piece_can_be_bribed_on_by_a_third_player_and_killed() -> None:
    """Bribe Chip Actions 3 and 6: a bribed piece stands in its holder's gang: others may bribe or
    kill it there; it stays loyal to its owner."""
    g = game(3)
    s = start(g, initiator=1)
    s = fight(g, s, COMM_B, {0: [0, 1, 0], 1: [1, 0, 0], 2: [1, 0, 0]})
    # Player 2 moves first: bribes player 0's Scorpion.
    s = g.play(s, "bribe take scorpion of p0 from p0")
    s = g.play(s, "shank cobra")
    assert s.bribed == ((2, 0, SCORPION),)
    # Player 0 kills it in player 2's area: it leaves the game (player 0's own piece).
    s = g.play(s, "bribe kill scorpion of p0 at p2")
    assert s.bribed == () and g.view(s, 1)["gangs"][0]["removed"] == [0, 1, 0]


def test_fight_action_example_commissary_block_a_to_f() -> None:
    """Fight Action Example: 'A. Initiating player chooses the Commissary action block. B. ... all fight
    rounds begin with the player to the left of the Initiator and end with the Initiator himself. C. In
    their fists, players select gang pieces ... D. In round 1, all "fighting" players must draw 1 fight
    card or play 1 shank card ... E. Round 2, same as in round 1. F. In round 3, all "fighting" players
    must draw 2 fight cards or play 2 shank cards, or 1 of each.'"""
    g = game(3)
    s = _no_chips(g, start(g, initiator=1))
    s = g.play(s, "choose commissary")  # A
    for p, fist in ((2, "fist C0 S0 T3"), (0, "fist C2 S0 T0"), (1, "fist C0 S2 T1")):  # C
        s = g.play(s, fist, player=p)
    turns = []
    for _ in range(3):  # rounds 1 and 2: one card each; round 3: two cards
        for _ in range(3):
            p = g.current_player(s)
            turns.append((s.rnd, p))
            for _ in range(2 if s.rnd == 3 else 1):
                assert g.current_player(s) == p
                s = chance(g, g.play(s, "draw"), CARD + {2: T1, 0: C1, 1: S1}[p])
    assert turns == [(r, p) for r in (1, 2, 3) for p in (2, 0, 1)]  # B, D, E, F
    # Player 2: 3 Tarantulas + 4 Tarantula cards = 7: first (1 fight point, 3 commissary). Players 0
    # and 1 tie with 6 Cobra and 6 Scorpion: the Commissary block's tie-breaker (T>S>C) puts 1 second.
    assert get_goods(s, 2, "fp") == 1 and get_goods(s, 2, "comm") == 5
    assert get_goods(s, 1, "comm") == 4 and get_goods(s, 0, "comm") == 3


def test_drug_block_payout_random_chips_and_used_drugs_when_the_pile_is_empty() -> None:
    """Drug Block: '1st place receives 1 Fight Point and 3 randomly selected Drug Chips ... If there are
    no drug chips left in the pile, players ... may select randomly from the used drugs.'"""
    g = game(3)
    s = start(g, initiator=1)
    from dataclasses import replace

    from kingmaker.games.san_quentin_kings.state import DPILE, DUSED
    sup = list(s.supply)
    sup[DUSED : DUSED + 3] = sup[DPILE : DPILE + 3]
    sup[DPILE : DPILE + 3] = [0, 0, 0]
    s = replace(s, supply=tuple(sup))
    s = fight(g, s, DRUG_B, {2: [2, 0, 0]})
    s = g.play(s, "pass")
    assert get_goods(s, 2, "fp") == 1 and g.current_player(s) == CHANCE
    # The used drugs became the pile: three chips at once, e.g. 1 green and 2 brown with
    # probability C(12,1) C(7,2) / C(28,3).
    outs = dict(g.chance_outcomes(s))
    assert outs[A.multi(A.CH_DRUGS0, (1, 0, 2))] == pytest.approx(12 * 21 / 3276)
    assert sum(s.supply[DUSED : DUSED + 3]) == 0 and sum(s.supply[DPILE : DPILE + 3]) == 28
    s = chance(g, s, A.multi(A.CH_DRUGS0, (1, 0, 2)))
    assert get_goods(s, 2, "drugs") == [1, 0, 2] and s.phase == P_BLOCK


def test_turn_shape_end_turn_and_no_card_left_sqk_8() -> None:
    """Ruling SQK-8: once the round's cards are played a player holding a chip may still bribe or end
    the turn; a player who must play a card but can neither draw nor play a shank ends the turn."""
    g = game(3)
    s = start(g, initiator=2)
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    s = g.play(s, "shank cobra")
    acts = g.legal_actions(s)
    assert A.END_TURN in acts and A.ADD in acts and A.DRAW not in acts
    s = g.play(s, "end turn")
    assert g.current_player(s) == 1
    # Every fight card lies in player 1's area: nothing to draw.
    t = _no_chips(g, start(g, initiator=2))
    t = goods(t, 0, shanks=[0, 0, 0], chips=1)
    codes = tuple(k for k in range(11) for _ in range(g.deck0[k]))
    t = fight(g, t, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]}, cards={1: codes})
    assert sum(t.fdeck) == 0 and g.legal_actions(t)[0] == A.PASS and A.DRAW not in g.legal_actions(t)
    t = g.play(t, "bribe extra card")  # fighting, but no card can be played
    assert g.current_player(t) == 1 and t.rnd == 1


def test_bus_is_full_again_at_every_action_sqk_5() -> None:
    """Ruling SQK-5: the bus is a menu, full again at each New Arrival (two of each type) and each
    Cafeteria (its top row, one of each type), whatever was bought before."""
    g = game(3)
    s = _no_chips(g, start(g, initiator=0))
    s = g.play(s, "choose cafeteria")
    while g.current_player(s) == CHANCE:
        s = g.apply(s, g.chance_outcomes(s)[0][0])
    s = g.play(s, "buy piece cobra")
    assert g.view(s, 1)["cafeteria"]["bus_row"] == [0, 1, 1]
    s = g.play(s, "buy nothing")
    s = g.play(s, "buy nothing")
    s = g.play(s, "choose new-arrival")
    for p in (2, 0, 1):
        s = g.play(s, "fist C1 S0 T0", player=p)
    while s.phase == P_TURN:
        s = g.play(s, "pass")
    assert g.view(s, 0)["bus"]["pieces"] == [2, 2, 2]
