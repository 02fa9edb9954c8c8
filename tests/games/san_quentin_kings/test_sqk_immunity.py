"""Empty-fist immunity against the steal cards (issue 12, bug 1; rulings SQK-12, SQK-13).

Rulebook, Preparing to Fight: "If someone opens an empty fist they are passing from the fight
and are immune to anything that may occur."
"""

from __future__ import annotations

from sqk_helpers import (
    BROWN,
    COBRA,
    GREEN,
    SCORPION,
    TARANTULA,
    chance,
    fight,
    game,
    get_goods,
    goods,
    start,
)

from kingmaker.core.api import CHANCE
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings.data import COMM_B, STEAL_DRUG, STEAL_SHANK
from kingmaker.games.san_quentin_kings.state import DPILE, P_STOLEN, P_VIC_DRUG, SDECK

CARD = A.CH_CARD0


def _no_chips(g, s):
    for p in range(g.num_players):
        s = goods(s, p, chips=0)
    return s


def test_steal_drug_card_never_takes_from_an_empty_fist_sqk_12() -> None:
    """'If someone opens an empty fist they are passing from the fight and are immune to anything
    that may occur': player 2 opened an empty fist, so only player 1 (in the fight) is robbed."""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2))
    s = goods(s, 1, drugs=[1, 0, 0])
    s = goods(s, 2, drugs=[0, 3, 0])  # not in the fight
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    s = g.play(s, "draw")
    s = chance(g, s, CARD + STEAL_DRUG)
    # One victim in the fight: no choice, the theft is a chance node over player 1's drugs.
    assert g.current_player(s) == CHANCE
    assert dict(g.chance_outcomes(s)) == {A.CH_DRUG0 + GREEN: 1.0}
    s = chance(g, s, A.CH_DRUG0 + GREEN)
    assert get_goods(s, 0, "drugs") == [1, 0, 0]
    assert get_goods(s, 2, "drugs") == [0, 3, 0]


def test_steal_shank_card_takes_from_the_deck_when_only_empty_fists_hold_shanks_sqk_12() -> None:
    """'... immune to anything that may occur'; Steal Shank: 'If no players have shank cards, the
    player takes one randomly from the shank deck.' Player 2 (empty fist) holds the only shanks."""
    g = game(3)
    s = _no_chips(g, start(g, initiator=2, shanks=[COBRA, COBRA, TARANTULA]))
    s = goods(s, 1, shanks=[0, 0, 0])
    s = goods(s, 2, shanks=[0, 2, 1])
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    deck = s.supply[SDECK : SDECK + 3]
    s = g.play(s, "draw")
    s = chance(g, s, CARD + STEAL_SHANK)
    assert g.current_player(s) == CHANCE
    total = sum(deck)
    assert dict(g.chance_outcomes(s)) == {A.CH_SHANK0 + t: deck[t] / total for t in range(3)}
    s = chance(g, s, A.CH_SHANK0 + SCORPION)
    assert s.phase == P_STOLEN
    assert get_goods(s, 2, "shanks") == [0, 2, 1]
    assert s.supply[SDECK + SCORPION] == deck[SCORPION] - 1


def test_steal_drug_victims_are_the_other_fighters_passed_included_sqk_12() -> None:
    """'... immune to anything that may occur': with two fighters holding drugs the drawer chooses
    between them (a passed fighter stays in the fight); the empty fist is never offered."""
    g = game(4)
    s = _no_chips(g, start(g, initiator=3))
    s = goods(s, 1, drugs=[0, 1, 0])
    s = goods(s, 2, drugs=[0, 0, 1])
    s = goods(s, 3, drugs=[2, 0, 0])  # not in the fight
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0], 2: [0, 1, 0]}, passed=(2,))
    pile = s.supply[DPILE : DPILE + 3]
    s = g.play(s, "draw")
    s = chance(g, s, CARD + STEAL_DRUG)
    assert s.phase == P_VIC_DRUG
    assert g.legal_actions(s) == [A.VICDRUG0 + 1, A.VICDRUG0 + 2]
    s = g.play(s, "steal drug from p2")
    s = chance(g, s, A.CH_DRUG0 + BROWN)
    assert get_goods(s, 0, "drugs") == [0, 0, 1] and get_goods(s, 3, "drugs") == [2, 0, 0]
    assert s.supply[DPILE : DPILE + 3] == pile
