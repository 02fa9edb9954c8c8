"""Perfect recall (issue 13): the public facts a view keeps about hidden shank cards and drug chips,
and resampling that respects each of them right after it happens (docs/rulings, "Public facts the
view keeps"; recall.py)."""

from __future__ import annotations

import random

from sqk_helpers import COBRA, SCORPION, TARANTULA, chance, fight, game, get_goods, goods, start

from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings.data import COMM_B
from kingmaker.games.san_quentin_kings.state import GSIZE, SH

SEEDS = range(300)


def _hand(s, q: int) -> list[int]:
    o = q * GSIZE
    return list(s.goods[o : o + 6])


def _samples(g, s, player: int):
    view = g.view(s, player)
    for k in SEEDS:
        t = g.sample_hidden(s, player, random.Random(k))
        assert g.view(t, player) == view
        g.validate_state(t)
        yield t


def _cafeteria(g, s, shanks=(1, 1, 1), drugs=(1, 1, 1)):
    s = g.play(s, "choose cafeteria")
    s = chance(g, s, A.multi(A.CH_SHANKS0, shanks))
    return chance(g, s, A.multi(A.CH_DRUGS0, drugs))


def test_a_shank_card_bought_face_up_stays_in_the_buyers_hand_in_every_resample() -> None:
    """Cafeteria Trade Block: '3 random shank cards and 3 random drug chips are placed face up': who buys
    which card is seen by everyone, so every other player's resample keeps it in the buyer's hand."""
    g = game(3)
    s = _cafeteria(g, start(g, initiator=0, shanks=[COBRA, COBRA, COBRA]))
    s = g.play(s, "buy shank tarantula")
    assert g.view(s, 1)["known"] == [{"player": 0, "shank_cards": [0, 0, 1], "drug_chips": [0, 0, 0]}]
    assert g.view(s, None)["known"] == g.view(s, 2)["known"]
    assert "known" not in g.view(s, 0)  # the buyer sees their own hand
    types = set()
    for observer in (1, 2):
        for t in _samples(g, s, observer):
            hand = _hand(t, 0)
            assert hand[TARANTULA] >= 1 and sum(hand[:3]) == 2
            types.add(tuple(hand[:3]))
    assert len(types) > 1  # the other card is still dealt again


def test_a_drug_chip_bought_face_up_stays_in_the_buyers_hand_in_every_resample() -> None:
    """Cafeteria Trade Block: the drug chips lie face up; the one bought is known to be the buyer's."""
    g = game(3)
    s = goods(start(g, initiator=0), 0, drugs=[2, 0, 0])
    s = _cafeteria(g, s)
    s = g.play(s, "buy drug white")
    for t in _samples(g, s, 2):
        assert t.goods[0 * GSIZE + 3 + 1] >= 1 and sum(t.goods[3:6]) == 3


def test_the_known_card_is_forgotten_once_played_in_a_fight() -> None:
    """Fight: a shank card played lies face up in the fight area; the card it was is no longer in hand."""
    g = game(3)
    s = _cafeteria(g, start(g, initiator=2, shanks=[COBRA, COBRA, COBRA]))
    s = g.play(s, "buy nothing")  # player 2
    s = g.play(s, "buy shank scorpion")  # player 0
    s = g.play(s, "buy nothing")
    assert g.view(s, 1)["known"][0]["shank_cards"] == [0, 1, 0]
    s = fight(g, s, COMM_B, {0: [0, 1, 0], 1: [1, 0, 0]}, pos=2)  # initiator 0: player 0 moves last
    s = g.play(s, "shank scorpion")
    assert "known" not in g.view(s, 1)
    assert get_goods(s, 0, "shanks") == [1, 0, 0]


def test_a_known_card_paid_face_up_is_forgotten_and_the_rest_stays_known() -> None:
    """Drug Block: 'All fighting players must first pay either 1 Commissary Cube or 1 Shank': the
    shank paid goes face up to the discards, so one known card of that type leaves the bound."""
    g = game(3)
    s = _cafeteria(g, start(g, initiator=0, shanks=[SCORPION, COBRA, COBRA]), shanks=(0, 2, 1))
    s = goods(s, 0, comm=3)
    s = g.play(s, "buy shank scorpion")  # player 0: scorpions are known once
    s = g.play(s, "buy nothing")
    s = g.play(s, "buy nothing")
    # Next cafeteria? No: a Drug block, where player 0 pays with a scorpion.
    s = g.play(s, "choose drug")  # player 1 is the initiator now
    s = g.play(s, "decline")  # player 1
    s = g.play(s, "decline")  # player 2
    assert g.view(s, 1)["known"][0]["shank_cards"] == [0, 1, 0]
    s = g.play(s, "pay scorpion-shank")  # player 0
    assert "known" not in g.view(s, 1)
    for t in _samples(g, s, 1):
        assert sum(_hand(t, 0)[:3]) == 1


def test_a_stolen_card_is_known_to_the_victim_and_forgotten_by_the_others() -> None:
    """Bribe Chip Actions 5: 'Shanks and Drugs are to be stolen in a random, face down manner': the
    thief and the victim see the card. The victim knows the thief holds it; a bystander who knew the
    victim's cards no longer knows which one went."""
    g = game(3)
    s = _cafeteria(g, start(g, initiator=1, shanks=[COBRA, COBRA, COBRA]))
    s = g.play(s, "buy shank tarantula")  # player 1 holds a Cobra and this Tarantula
    s = g.play(s, "buy nothing")  # player 2
    s = g.play(s, "buy nothing")  # player 0
    assert g.view(s, 2)["known"] == [{"player": 1, "shank_cards": [0, 0, 1], "drug_chips": [0, 0, 0]}]
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})  # the initiator is player 2: player 0 moves first
    assert g.current_player(s) == 0
    s = g.play(s, "bribe steal shank from p1")
    s = chance(g, s, A.CH_SHANK0 + TARANTULA)
    # Player 2 saw a card go, not which: player 1's known Tarantula may be the one stolen.
    assert "known" not in g.view(s, 2)
    # Player 1 (the victim) saw it: the thief holds a Tarantula in every resample of theirs.
    assert g.view(s, 1)["known"] == [{"player": 0, "shank_cards": [0, 0, 1], "drug_chips": [0, 0, 0]}]
    for t in _samples(g, s, 1):
        assert t.goods[0 * GSIZE + SH + TARANTULA] >= 1
    # Player 2's resamples deal player 0's two cards freely.
    assert any(t.goods[0 * GSIZE + SH + TARANTULA] == 0 for t in _samples(g, s, 2))


def test_every_resample_keeps_every_known_card_over_seeded_games() -> None:
    """Whatever happens in a game, each observer's resample holds every card they know of."""
    from kingmaker.core.api import CHANCE

    g = game(4)
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not g.is_terminal(s):
            if any(s.known) and rng.random() < 0.2:
                for o in range(4):
                    t = g.sample_hidden(s, o, random.Random(seed))
                    assert g.view(t, o) == g.view(s, o)
                    for entry in g.view(s, o).get("known", []):
                        hand = _hand(t, entry["player"])
                        assert all(h >= k for h, k in zip(hand, entry["shank_cards"] + entry["drug_chips"]))
                        checked += 1
            if g.current_player(s) == CHANCE:
                outs = g.chance_outcomes(s)
                a = rng.choices([x for x, _ in outs], [w for _, w in outs])[0]
                s = g.apply(s, a)
            else:
                p = rng.choice(g.acting_players(s))
                s = g.apply(s, g.heuristic_action(s, p, rng), p)
    assert checked > 50


def test_unsold_cafeteria_goods_shuffled_back_stay_in_the_deck_in_every_resample() -> None:
    """Ruling SQK-11: unsold face-up shank cards and drug chips go back into the shank deck and the
    drug pile. Everyone saw them, so until cards are taken from the deck every resample keeps them."""
    g = game(3)
    s = goods(start(g, initiator=0), 1, shanks=[0, 2, 2], drugs=[1, 1, 1])
    s = _cafeteria(g, s, shanks=(0, 0, 3), drugs=(0, 3, 0))
    for _ in range(3):
        s = g.play(s, "buy nothing")
    assert g.view(s, 0)["supply"]["known_in_deck"] == [0, 0, 3, 0, 3, 0]
    for t in _samples(g, s, 0):
        assert t.supply[2] >= 3 and t.supply[6 + 1] >= 3


def test_a_deck_refilled_from_its_discards_is_known_card_by_card() -> None:
    """Shortages (ruling SQK-14): a deck that runs out is refilled from its discards, which lay face
    up: the new deck is exactly those cards, in every resample."""
    from dataclasses import replace

    from kingmaker.games.san_quentin_kings.state import SDECK, SDISC

    g = game(3)
    s = start(g, initiator=2, shanks=[COBRA, COBRA, COBRA])
    sup = list(s.supply)
    deck = sup[SDECK : SDECK + 3]
    sup[SDECK : SDECK + 3] = [0, 0, 0]
    sup[SDISC : SDISC + 3] = [0, 1, 2]  # 1 Scorpion and 2 Tarantulas lie face up in the discards
    gd = list(s.goods)
    gd[2 * GSIZE + SH : 2 * GSIZE + SH + 3] = [deck[0] + 1, deck[1] - 1, deck[2] - 2]  # player 2 holds the rest
    s = goods(replace(s, supply=tuple(sup), goods=tuple(gd)), 0, chips=0)
    s = fight(g, s, COMM_B, {0: [1, 0, 0]})
    s = g.play(s, "draw")
    s = chance(g, s, A.CH_CARD0 + 10)  # Steal Shank, nobody else in the fight: from the (empty) deck
    assert g.view(s, 1)["supply"]["known_in_deck"][:3] == [0, 1, 2]
    for t in _samples(g, s, 1):
        assert t.supply[SDECK : SDECK + 3] == (0, 1, 2)


def test_the_victim_of_a_steal_shank_card_knows_the_card_waiting_to_be_played() -> None:
    """Steal Shank: 'The stolen shank may be used immediately in the fight round or held for later use.'
    The victim saw the card: in each of their resamples it is the one the thief may play now; the
    others only know that some card of the thief's waits."""
    from kingmaker.games.san_quentin_kings.data import STEAL_SHANK
    from kingmaker.games.san_quentin_kings.state import P_STOLEN

    g = game(3)
    s = goods(start(g, initiator=2, shanks=[COBRA, SCORPION, COBRA]), 0, chips=0)
    s = goods(s, 1, shanks=[0, 1, 1])
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    s = g.play(s, "draw")
    s = chance(g, s, A.CH_CARD0 + STEAL_SHANK)
    s = chance(g, s, A.CH_SHANK0 + TARANTULA)
    assert s.phase == P_STOLEN
    assert g.view(s, 0)["yours"]["stolen_shank"] == "Tarantula"
    assert g.view(s, 1)["yours"]["shank_taken_from_you"] == "Tarantula"
    assert "shank_taken_from_you" not in g.view(s, 2)["yours"]
    for t in _samples(g, s, 1):
        assert t.pending % 3 == TARANTULA and t.goods[0 * GSIZE + SH + TARANTULA] >= 1
    assert len({t.pending % 3 for t in _samples(g, s, 2)}) > 1  # player 2 saw neither card
    s = g.play(s, "play stolen")
    assert "known" not in g.view(s, 1)  # the card lies face up in the fight
