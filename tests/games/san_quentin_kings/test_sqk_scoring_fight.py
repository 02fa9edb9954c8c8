"""Scoring Fight: strongest single type, the block's tie-breaker, second and third types, then
initiating order (Scoring Examples 1-4); payouts with their shortages."""

from __future__ import annotations

from sqk_helpers import COBRA, SCORPION, TARANTULA, chance, fight, game, get_goods, start

from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings.data import COMM_B, DRUG_B, NEW_B, SHANK_B, SHANK_CODE0
from kingmaker.games.san_quentin_kings.fight import fight_key, strength
from kingmaker.games.san_quentin_kings.state import OWE_COMM, P_BLOCK, P_PICK, SCOMM

C1, S1, T1, C2, S2, T2 = 0, 1, 2, 3, 4, 5


def _stronger(block: int, a: list[int], b: list[int]) -> bool:
    return fight_key(a, block) > fight_key(b, block)


def _score_all_passed(g, s):
    """Everyone in the fight passes from the current turn on; returns the state after scoring."""
    while g.current_player(s) >= 0 and s.phase == 6:
        s = g.apply(s, A.PASS, g.current_player(s))
    return s


def test_scoring_example_1_most_of_one_type() -> None:
    """Example 1: 'Sarah has 4 Scorpion strength, 4 Tarantula strength and 1 Cobra strength ... Ross
    has 5 Tarantula strength and 1 Cobra strength. Ross is stronger.'"""
    sarah, ross = [1, 4, 4], [1, 0, 5]
    for block in (SHANK_B, COMM_B, NEW_B, DRUG_B):
        assert _stronger(block, ross, sarah)


def test_scoring_example_2_tie_broken_by_the_blocks_tie_breaker() -> None:
    """Example 2: 'Sarah has 4 Scorpion strength and 3 Cobra strength ... Ross has 4 Tarantula
    strength, 1 Cobra strength, and 1 Scorpion strength. Sarah wins this fight because the tie
    breaker reads Scorpions are stronger than Tarantula' (the Shank block, S>T>C)."""
    sarah, ross = [3, 4, 0], [1, 1, 4]
    assert _stronger(SHANK_B, sarah, ross)
    # Under the Commissary block (T>S>C) the same fight goes to Ross.
    assert _stronger(COMM_B, ross, sarah)


def test_scoring_example_3_second_strongest_type_sqk_6() -> None:
    """Example 3: 'Sarah has 4 Cobra strength and 3 Scorpion strength ... Ross has 4 Cobra strength
    and 2 Tarantula strength. Sarah is stronger; her 3 Scorpions beat Ross's 2 Tarantulas.'
    Ruling SQK-6: the second strongest strength decides, whatever the block's tie-breaker."""
    sarah, ross = [4, 3, 0], [4, 0, 2]
    for block in (SHANK_B, COMM_B, NEW_B, DRUG_B):
        assert _stronger(block, sarah, ross)


def test_scoring_third_strongest_type_then_tie_breaker() -> None:
    """Scoring Fight: 'If play is still tied, consult the tie breaker and count the third strongest
    gang member type.'"""
    a, b = [3, 2, 1], [3, 2, 0]
    assert _stronger(NEW_B, a, b)
    # Same strengths, the tie-breaker ranks the types holding them: Drug is C>T>S.
    c, d = [3, 1, 2], [3, 2, 1]
    assert _stronger(DRUG_B, c, d)


def test_scoring_example_4_deadlock_initiating_order() -> None:
    """Example 4: 'Keith, the initiator, is strongest, followed in clockwise order by Sarah and Ross.
    Sarah, Ross and Keith each have 3 Scorpion strength and 2 Cobra strength.'"""
    g = game(3)
    keith, sarah, ross = 0, 1, 2
    s = start(g, initiator=keith)
    s = fight(g, s, SHANK_B, {keith: [2, 3, 0], sarah: [2, 3, 0], ross: [2, 3, 0]})
    assert g.ranking(s) == [keith, sarah, ross]
    s = _score_all_passed(g, s)
    # 1st: 1 fight point and 3 shank cards, 2nd 2 shank cards, 3rd 1.
    assert get_goods(s, keith, "fp") == 1 and get_goods(s, sarah, "fp") == 0
    owed = [s.goods[p * 13 + 10] for p in range(3)]
    assert owed == [3, 2, 1]


def test_scoring_cards_count_only_with_a_piece_of_their_type() -> None:
    """Scoring Fight: 'If a player has several cards of a particular member type but no gang pieces
    representing that member type in the fight, the cards are worth zero.'"""
    g = game(3)
    s = start(g)
    s = fight(g, s, SHANK_B, {0: [1, 0, 0], 1: [0, 2, 0]}, cards={0: (C1, C2, T1, T2), 1: (SHANK_CODE0 + COBRA,)})
    assert strength(s, 0) == [4, 0, 0]
    assert strength(s, 1) == [0, 2, 0]  # a Cobra shank card without a Cobra piece counts 0


def test_scoring_payout_first_second_third_and_fourth_gets_nothing() -> None:
    """Scoring Fight: '1st ... 1 Fight point ... and 3 of the types of goods ... 2nd ... 2 ... 3rd ...
    1 ... 4th and 5th place gangs receive nothing.' (Commissary block.)"""
    g = game(4)
    s = start(g, initiator=3)
    s = fight(g, s, COMM_B, {0: [4, 0, 0], 1: [0, 3, 0], 2: [0, 0, 2], 3: [1, 0, 0]})
    s = _score_all_passed(g, s)
    assert [get_goods(s, p, "comm") for p in range(4)] == [5, 4, 3, 2]
    assert [get_goods(s, p, "fp") for p in range(4)] == [1, 0, 0, 0]
    assert s.phase == P_BLOCK and s.initiator == 0  # the initiator disc moved clockwise


def test_commissary_block_shortage_owed_until_cubes_return_sqk_14() -> None:
    """Commissary Block: 'If there is no commissary left in the pile, players can wait until used
    commissary arrives later in the game. Players still earn their commissary.' (SQK-14)"""
    g = game(3)
    s = start(g, initiator=2)
    from sqk_helpers import goods
    s = goods(s, 2, comm=2 + s.supply[SCOMM] - 1)  # one cube left in the supply
    s = fight(g, s, COMM_B, {0: [3, 0, 0], 1: [2, 0, 0]})
    s = _score_all_passed(g, s)
    assert get_goods(s, 0, "comm") == 3 and s.goods[0 * 13 + OWE_COMM] == 2
    assert s.goods[1 * 13 + OWE_COMM] == 2
    # A cafeteria purchase returns a cube; the next clean-up hands it to player 0 (first clockwise
    # from the new initiator 0).
    s = g.apply(s, 5)  # choose cafeteria
    while g.current_player(s) == -1:  # the cafeteria's goods are laid out
        s = g.apply(s, g.chance_outcomes(s)[0][0])
    while s.phase == 2 and g.current_player(s) >= 0:
        p = g.current_player(s)
        s = g.apply(s, A.CAFE_R1 if p == 2 and A.CAFE_R1 in g.legal_actions(s) else A.CAFE_NONE, p)
    while g.current_player(s) == -1:
        s = g.apply(s, g.chance_outcomes(s)[0][0])
    assert s.goods[0 * 13 + OWE_COMM] == 1 and get_goods(s, 0, "comm") == 4


def test_shank_block_payout_draws_shank_cards_from_the_deck() -> None:
    """Shank Block: '1st place receives 1 Fight Point and 3 Shank Cards' - each a random card."""
    g = game(3)
    s = start(g, initiator=0)
    s = fight(g, s, SHANK_B, {1: [0, 3, 0]})
    s = _score_all_passed(g, s)
    assert get_goods(s, 1, "fp") == 1
    s = chance(g, s, A.multi(A.CH_SHANKS0, (1, 1, 1)))
    assert get_goods(s, 1, "shanks") == [2, 1, 1]
    assert s.phase == P_BLOCK


def test_drug_block_owed_drugs_never_arriving_count_as_green_baboon_sqk_14() -> None:
    """Drug Block: 'If they never arrive, all drugs earned but not obtained are considered green
    baboon drugs.'"""
    g = game(3)
    s = start(g)
    from dataclasses import replace
    gl = list(s.goods)
    gl[0 * 13 + 12] = 2  # two drugs owed to player 0
    gl[1 * 13 + 3] = 1  # player 1 holds one green baboon
    sup = list(s.supply)
    sup[6] -= 1
    s = replace(s, goods=tuple(gl), supply=tuple(sup))
    sc = g.score_breakdown(s)
    assert sc[0]["drug_king"] == 4 and sc[1]["drug_king"] == 0


def test_new_arrival_picks_three_two_one_from_the_bus() -> None:
    """New Arrival Block: 1st 'may choose 3 out of the 6 in any combination'; 2nd '2 gang pieces ...
    from the unselected'; 3rd 'the last remaining'. Pieces come from the court into the yard. Example:
    '2nd strongest must select 2 gang pieces out of the remaining 3 choices.'"""
    g = game(3)
    s = start(g, initiator=0)
    s = fight(g, s, NEW_B, {0: [0, 0, 1], 1: [3, 0, 0], 2: [2, 0, 0]})
    s = _score_all_passed(g, s)
    assert s.phase == P_PICK and g.current_player(s) == 1
    for a in (A.PICK0 + COBRA, A.PICK0 + COBRA):
        s = g.play(s, a)
    # Both Cobras of the bus are gone.
    assert g.legal_actions(s) == [A.PICK0 + SCORPION, A.PICK0 + TARANTULA]
    s = g.play(s, "pick tarantula")
    assert g.current_player(s) == 2
    assert g.view(s, 2)["bus"] == {"pieces": [0, 2, 1], "ranking": [1, 2, 0], "picking": 2, "picks_left": 2}
    s = g.play(s, "pick scorpion")
    s = g.play(s, "pick scorpion")
    assert g.current_player(s) == 0 and g.legal_actions(s) == [A.PICK0 + TARANTULA]
    s = g.play(s, "pick tarantula")
    assert s.phase == P_BLOCK
    from sqk_helpers import get_pieces
    assert get_pieces(s, 1, "yard") == [3 + 2, 0, 1]
    assert get_pieces(s, 1, "court") == [4 - 2 - 0, 4, 3]


def test_new_arrival_court_system_limits_the_choice() -> None:
    """New Arrival Block: 'If a player has no pieces left in the court system pile of a particular
    type, he must choose another gang member type.'"""
    g = game(3)
    s = start(g, initiator=0)
    from sqk_helpers import pieces
    s = pieces(s, 1, court=[0, 4, 4])
    s = fight(g, s, NEW_B, {1: [3, 0, 0]})
    s = _score_all_passed(g, s)
    assert g.legal_actions(s) == [A.PICK0 + SCORPION, A.PICK0 + TARANTULA]
