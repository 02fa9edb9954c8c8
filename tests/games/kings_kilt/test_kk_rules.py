"""King's Kilt rules, one test (or more) per rulebook section.

Positions are drawn as pyramids: cells are named by row from the base (a)
to the top (f) and by column from the left::

    f            f1                (King)
    e          e1  e2              (Guardians)
    d        d1  d2  d3            (Noblemen)
    c      c1  c2  c3  c4
    b    b1  b2  b3  b4  b5
    a  a1  a2  a3  a4  a5  a6      (base row, filled from the draw pile)
"""

from __future__ import annotations

import random

import pytest

import kingmaker
from kingmaker import CHANCE, TERMINAL, IllegalActionError
from kingmaker.games.kings_kilt import actions as A
from kingmaker.games.kings_kilt.data import (
    CELL_BY_NAME,
    CELLS,
    CLANS,
    LEADERS_PER_CLAN,
    MEMBERS_PER_CLAN,
    NUM_CLANS,
)
from kingmaker.games.kings_kilt.rules import score_family
from kingmaker.games.kings_kilt.state import END, FILL, PLAY, REVEAL, SETUP_FAMILY, State

C = {name: i for i, name in enumerate(CLANS)}


def kind(name: str) -> int:
    """'Stewart' is a member, 'Stewart*' a leader."""
    return C[name.rstrip("*")] + (8 if name.endswith("*") else 0)


def position(
    game,
    cells: dict[str, str],
    *,
    top: str | None = "MacBeth*",
    family=None,
    hands=None,
    revealed=None,
    current: int = 0,
    crowned: int | None = None,
    noblemen: int = -1,
    guardians: int = -1,
    passed: int = 0,
    discards=None,
) -> State:
    """Builds a consistent state in the PLAY phase; unseen cards make up the rest of the deck."""
    n = game.num_players
    pyr = [-1] * CELLS
    for name, card in cells.items():
        pyr[CELL_BY_NAME[name]] = kind(card)
    family = family or [("Bruce", "Douglas", "Wallace")] * n
    fam = tuple(tuple(sorted(C[c] for c in f)) for f in family)
    hands = hands or [{} for _ in range(n)]
    hand_t = tuple(tuple(h.get(c, 0) for c in CLANS) for h in hands)
    disc = tuple((discards or {}).get(c, 0) for c in CLANS)
    counts = [MEMBERS_PER_CLAN] * NUM_CLANS + [LEADERS_PER_CLAN] * NUM_CLANS
    for k in pyr:
        if k >= 0:
            counts[k] -= 1
    t = kind(top) if top else -1
    if t >= 0:
        counts[t] -= 1
    for f in fam:
        for k in f:
            counts[k] -= 1
    for h in hand_t:
        for k in range(NUM_CLANS):
            counts[k] -= h[k]
    for k in range(NUM_CLANS):
        counts[k] -= disc[k]
    assert min(counts) >= 0, "the position uses more cards than the game has"
    rev = tuple(
        sum(1 << C[c] for c in (revealed[q] if revealed else ())) for q in range(n)
    )
    return State(
        PLAY, 0, tuple(pyr), t, tuple(counts), sum(counts), disc, (0,) * 16, fam, rev, hand_t,
        current, -1, int(pyr[0] >= 0) if crowned is None else crowned, noblemen, guardians, (), passed,
    )


BASE = {"a1": "Bruce", "a2": "Douglas", "a3": "Stewart", "a4": "Wallace", "a5": "MacLeod", "a6": "MacBeth"}


@pytest.fixture
def g2():
    return kingmaker.make("kings-kilt", players=2)


@pytest.fixture
def g3():
    return kingmaker.make("kings-kilt", players=3)


def play(game, s, *moves):
    for m in moves:
        s = game.play(s, m)
    return s


def reveal_top(game, s, card: str):
    assert game.current_player(s) == CHANCE
    return game.play(s, A.card(kind(card)))


# ---- Components ------------------------------------------------------------------
def test_components_67_cards_16_leaders_ruling_kk1(g2):
    """Components (67 Cards): 16 Clan Leaders, 48 Clan Members (+3 reminders).

    Set-up says 'Shuffle the 14 Clan Leaders': ruling KK-1 keeps 16 (8 clans x 2)."""
    s = g2.new_initial_state()
    assert sum(s.unseen[:8]) == 48 and sum(s.unseen[8:]) == 16
    assert len(CLANS) == 8 and all(s.unseen[k] == 6 for k in range(8)) and all(s.unseen[k] == 2 for k in range(8, 16))


# ---- Setting Up ----------------------------------------------------------------------
def test_setting_up_family_cards_three_distinct_clans(g3):
    """Setting Up: 'Each family member must be from a different clan so place any duplicates
    face-down and request another card' - a player's family never repeats a clan."""
    s = g3.new_initial_state()
    s = play(g3, s, A.card(C["Bruce"]))  # player 0's first family card
    s = play(g3, s, A.card(C["Bruce"]), A.card(C["Bruce"]))  # players 1 and 2
    outcomes = dict(g3.chance_outcomes(s))
    assert A.card(C["Bruce"]) not in outcomes  # player 0 cannot be dealt a second Bruce
    assert len(outcomes) == 7 and abs(sum(outcomes.values()) - 1) < 1e-12
    with pytest.raises(IllegalActionError):
        g3.play(s, A.card(C["Bruce"]))


def test_setting_up_duplicates_return_to_the_deck(g2):
    """Setting Up: 'Return duplicate family members to the Clan Members deck and reshuffle':
    a family card's draw probability is proportional to what is left of the allowed clans."""
    s = g2.new_initial_state()
    s = play(g2, s, A.card(C["Bruce"]), A.card(C["Bruce"]))
    out = dict(g2.chance_outcomes(s))
    # Player 0 holds a Bruce: 7 clans of 6 cards each remain allowed.
    assert all(abs(p - 1 / 7) < 1e-12 for p in out.values())


def test_setting_up_influence_five_cards_or_four_with_four_players():
    """Setting Up: 'deal four (in a 4-player game) or five (in a 2-3 player game)'."""
    for n, size in ((2, 5), (3, 5), (4, 4)):
        g = kingmaker.make("kings-kilt", players=n)
        m = kingmaker.Match(g, [None] * n, seed=n)
        while g.current_player(m.state) == CHANCE and m.state.phase != PLAY:
            m.step_chance()
        assert [sum(h) for h in m.state.hands] == [size] * n
        assert all(len(f) == 3 for f in m.state.family)


def test_setting_up_leaders_on_top_of_the_draw_pile_and_six_base_cards(g2):
    """Setting Up: leaders are shuffled and placed on top; 'Place the first six cards from the
    draw pile in a face-up row': the base row is six leaders, and the pile's top is a leader."""
    m = kingmaker.Match(g2, [None, None], seed=5)
    while m.state.phase != PLAY or g2.current_player(m.state) == CHANCE:
        m.step_chance()
    s = m.state
    base = [s.pyramid[CELL_BY_NAME[f"a{i}"]] for i in range(1, 7)]
    assert all(k >= 8 for k in base)
    assert s.top >= 8
    assert all(s.pyramid[i] < 0 for i in range(15))
    assert g2.current_player(s) == 0  # ruling KK-3: seat 0 starts


def test_setting_up_one_per_clan_family_deal_option():
    """Named option 'one-per-clan' (later printing): the first two family cards of every player
    come from a pile of one member per clan, so no two players share them."""
    g = kingmaker.make("kings-kilt", players=4, family_deal="one-per-clan")
    for seed in range(5):
        m = kingmaker.Match(g, [None] * 4, seed=seed)
        firsts = []
        for _ in range(8):
            m.step_chance()
        for f in m.state.family:
            firsts.extend(f)
        assert sorted(firsts) == list(range(8))


# ---- Ascending the Throne ------------------------------------------------------------
def test_ascending_diagonally_into_an_empty_space(g2):
    """Ascending the Throne: 'making a diagonal move with a clan card so that it ascends to the
    next level of the pyramid (A)'.

        b    .   .   .   .   .            b1 <- a2 (left) or b2 <- a2 (right)
        a  Bru Dou Ste Wal McL McB
    """
    s = position(g2, BASE)
    legal = [g2.action_to_str(s, a) for a in g2.legal_actions(s)]
    assert "ascend a2 left" in legal and "ascend a2 right" in legal
    assert "ascend a1 left" not in legal  # no card to the left of a1
    assert "ascend a6 right" not in legal
    s2 = g2.play(s, "ascend a2 left")
    assert s2.pyramid[CELL_BY_NAME["b1"]] == kind("Douglas")


def test_ascending_bottom_vacuum_filled_from_draw_pile_ends_turn(g2):
    """Ascending the Throne: 'If the empty space is on the bottom row, it is filled by the top
    card on the draw pile (C), ending the turn.'"""
    s = position(g2, BASE, top="Hamilton")
    s = g2.play(s, "ascend a2 left")
    assert s.pyramid[CELL_BY_NAME["a2"]] == kind("Hamilton")
    assert g2.current_player(s) == CHANCE  # the next top card is turned up
    s = reveal_top(g2, s, "Buchanan*")
    assert s.top == kind("Buchanan*") and g2.current_player(s) == 1


def test_ascending_vacuum_above_bottom_filled_by_one_of_the_two_beneath(g2):
    """Ascending the Throne: 'If the power vacuum is not on the bottom row, it is filled with one
    of the two cards beneath it (B). This will create another empty space which also must be
    filled.'  The active player chooses.

        c    McB  .   .   .              c1 ascends from b1 leaving a vacuum at b1,
        b  Ham Buc  .   .   .             filled from a1 or a2; a1/a2 then from the pile.
        a  Bru Dou Ste Wal McL McB
    """
    cells = dict(BASE, b1="Hamilton", b2="Buchanan")
    s = position(g2, cells, top="Stewart")
    s = g2.play(s, "ascend b1 right")
    assert s.phase == FILL and g2.current_player(s) == 0
    assert sorted(g2.action_to_str(s, a) for a in g2.legal_actions(s)) == ["fill from a1", "fill from a2"]
    s = g2.play(s, "fill from a2")
    assert s.pyramid[CELL_BY_NAME["b1"]] == kind("Douglas")
    assert s.pyramid[CELL_BY_NAME["a2"]] == kind("Stewart")  # base refilled from the draw pile


def test_support_cards_ascend_only_towards_a_neighbouring_card(g2):
    """Clans require support: 'Cards can only ascend in the direction of a neighboring card (A).
    If the space to the left or right of them is empty (B), they cannot ascend in that
    direction (C).'

        b  Ham  .  Buc  .   .             b3 has no neighbour to its left (b2 empty):
        a  Bru Dou Ste Wal McL McB        it cannot ascend left; b1 cannot ascend right.
    """
    cells = dict(BASE, b1="Hamilton", b3="Buchanan")
    s = position(g2, cells)
    names = {g2.action_to_str(s, a) for a in g2.legal_actions(s)}
    assert "ascend b3 left" not in names and "ascend b3 right" not in names
    assert "ascend b1 right" not in names
    with pytest.raises(IllegalActionError, match="neighbouring card"):
        g2.play(s, "ascend b3 left")


def test_ascending_reshuffle_discards_when_the_draw_pile_runs_out(g2):
    """Ascending the Throne: 'In the rare case where cards run out, shuffle the discards to create
    a new draw pile.'"""
    s = position(g2, BASE, top="Hamilton", discards={"Wallace": 2})
    # Empty the unseen part of the pile (move those cards out of the game).
    s = State(s.phase, 0, s.pyramid, s.top, (0,) * 16, 0, s.discards, s.unseen, s.family, s.revealed,
              s.hands, 0, -1, 0, -1, -1, (), 0)
    s = g2.play(s, "ascend a3 left")
    assert s.discards == (0,) * 8 and s.pile_n == 2
    assert g2.chance_outcomes(s) == [(A.card(C["Wallace"]), 1.0)]


# ---- Influence & Betrayal --------------------------------------------------------------
def test_betrayal_discard_influence_card_removes_a_neighbour(g2):
    """Influence & Betrayal: 'discard an influence card from their hand (A), causing a member of
    that clan (B) to betray one of its neighbors. The betrayed card (C) is removed from the
    game, creating a power vacuum that the active player must fill in the normal fashion (D).'
    """
    cells = dict(BASE, b1="Hamilton")
    s = position(g2, cells, top="Buchanan", hands=[{"Stewart": 1}, {}])
    s = g2.play(s, "betray Stewart a4")  # Stewart at a3 betrays its right neighbour Wallace
    assert s.hands[0][C["Stewart"]] == 0 and s.discards[C["Stewart"]] == 1
    assert s.removed[kind("Wallace")] == 1
    assert s.pyramid[CELL_BY_NAME["a4"]] == kind("Buchanan")


def test_betrayal_six_directions_including_own_clan(g2):
    """Influence & Betrayal: 'betray a single neighbor in any of six directions shown: left,
    right, and the four diagonals. They are even permitted to betray members of their own clan.'

        c       .  Ste  .   .
        b    .  Ham Dou  .   .            Stewart at c2 neighbours b2, b3 (below),
        a  Bru Dou Ste Wal McL McB        d1, d2 (above: empty) and c1, c3 (empty).
    """
    cells = dict(BASE, b2="Hamilton", b3="Stewart", c2="Stewart")
    s = position(g2, cells, hands=[{"Stewart": 1}, {}])
    targets = sorted(g2.action_to_str(s, a).split()[-1] for a in g2.legal_actions(s) if a >= A.BETRAY0 and a < A.FILL0)
    # Stewart cards stand at a3, b3 and c2: their occupied neighbours.
    assert targets == sorted({"a2", "a4", "b2", "b3", "a3", "c2"})


def test_betrayal_needs_the_influence_card_and_a_neighbouring_member(g2):
    """Influence & Betrayal: only with an influence card of the clan, against a neighbour."""
    s = position(g2, BASE, hands=[{"Stewart": 1}, {}])
    with pytest.raises(IllegalActionError, match="no influence card"):
        g2.play(s, "betray Wallace a3")
    with pytest.raises(IllegalActionError, match="neighbours"):
        g2.play(s, "betray Stewart a6")


def test_betrayal_king_can_be_betrayed_and_the_vacuum_refilled(g2):
    """Influence & Betrayal: 'Important: All cards, including the King card, can be betrayed!'"""
    cells = full_pyramid()
    s = position(g2, cells, hands=[{"Stewart": 1}, {}], crowned=1)
    # Stewart at e1 neighbours the King at f1.
    s = g2.play(s, "betray Stewart f1")
    assert s.phase == FILL and s.vacuum == 0
    s = g2.play(s, "fill from e2")
    assert s.pyramid[0] == kind("Wallace")


def full_pyramid() -> dict[str, str]:
    """A full pyramid: MacLeod King, Stewart/Wallace Guardians, Stewart/MacBeth/Bruce Noblemen.

        f              McL
        e            Ste Wal
        d          Ste McB Bru
        c        Ham Buc Dou Ham
        b      Dou Bru Buc Wal Ham
        a    Bru Dou Ste Wal McL McB
    """
    return dict(
        BASE,
        b1="Douglas", b2="Bruce", b3="Buchanan", b4="Wallace", b5="Hamilton",
        c1="Hamilton", c2="Buchanan", c3="Douglas", c4="Hamilton",
        d1="Stewart", d2="MacBeth", d3="Bruce",
        e1="Stewart", e2="Wallace",
        f1="MacLeod",
    )


# ---- Kings, Guardians, and Noblemen -----------------------------------------------------
def test_king_clan_betrays_anywhere(g2):
    """Kings, Guardians, and Noblemen: 'Players who discard an Influence card matching the King's
    clan can betray cards anywhere in the pyramid (including the King)'."""
    s = position(g2, full_pyramid(), hands=[{"MacLeod": 1}, {}])
    targets = {g2.action_to_str(s, a).split()[-1] for a in g2.legal_actions(s) if A.BETRAY0 <= a < A.FILL0}
    assert len(targets) == CELLS  # every card, the far base corner and the King included
    assert "a1" in targets and "f1" in targets


def test_noblemen_reward_first_to_reach_third_last_row_three_players(g3):
    """Kings, Guardians, and Noblemen: the first player who ascends to the third-last row forces
    all opponents to turn one family card face up (3-4 players); opponents choose which
    (ruling KK-4), in clockwise order."""
    cells = dict(BASE, b1="Hamilton", b2="Buchanan", c1="Stewart", c2="Wallace")
    s = position(g3, cells, family=[("Bruce", "Douglas", "Wallace")] * 3)
    s = g3.play(s, "ascend c1 right")  # to d1: the Noblemen row
    while s.phase == FILL:
        s = g3.play(s, g3.legal_actions(s)[0])
    if g3.current_player(s) == CHANCE:
        s = reveal_top(g3, s, "Hamilton*")
    assert s.noblemen == 0 and s.phase == REVEAL
    assert g3.current_player(s) == 1
    s = g3.play(s, "reveal Douglas")
    assert g3.current_player(s) == 2
    s = g3.play(s, "reveal Wallace")
    assert s.revealed == (0, 1 << C["Douglas"], 1 << C["Wallace"])
    assert g3.current_player(s) == 1 and s.phase == PLAY  # then the turn passes on
    v = g3.view(s, 0)
    assert v["revealed_family"] == [[], ["Douglas"], ["Wallace"]]


def test_guardians_reward_two_players_reveal_all_but_one(g2):
    """Kings, Guardians, and Noblemen: 'The Guardian Reminder card offers an even more powerful
    reward in a 2-player game as you force your opponent to reveal all but one of their family
    cards.'  Cumulative with the Noblemen reveal already made."""
    cells = dict(BASE, b1="Hamilton", b2="Buchanan", b3="Bruce", c1="Stewart", c2="Wallace", d1="MacBeth",
                 c3="Douglas", d2="Hamilton")
    s = position(g2, cells, noblemen=1, revealed=[("Bruce",), ()])
    s = g2.play(s, "ascend d2 left")  # to e1: the Guardians row
    while s.phase == FILL:
        s = g2.play(s, g2.legal_actions(s)[0])
    if g2.current_player(s) == CHANCE:
        s = reveal_top(g2, s, "Hamilton*")
    assert s.guardians == 0 and s.phase == REVEAL and g2.current_player(s) == 1
    s = g2.play(s, "reveal Douglas")
    s = g2.play(s, "reveal Wallace")
    assert bin(s.revealed[1]).count("1") == 2 and s.phase == PLAY


def test_guardians_reward_three_players_same_as_noblemen(g3):
    """Kings, Guardians, and Noblemen: 'In a 3- or 4-player game, both cards offer the same
    reward' - one card from each opponent."""
    cells = dict(BASE, b1="Hamilton", b2="Buchanan", b3="Bruce", c1="Stewart", c2="Wallace", d1="MacBeth",
                 c3="Douglas", d2="Hamilton")
    s = position(g3, cells, noblemen=1)
    s = g3.play(s, "ascend d2 left")
    while s.phase == FILL:
        s = g3.play(s, g3.legal_actions(s)[0])
    if g3.current_player(s) == CHANCE:
        s = reveal_top(g3, s, "Hamilton*")
    assert s.pending == (1, 2)


def test_crowning_then_only_betrayal_or_pass(g2):
    """Once a card occupies the top it becomes the King; from then on players betray or pass."""
    cells = dict(full_pyramid())
    del cells["f1"]
    s = position(g2, cells, hands=[{"Stewart": 1}, {}], crowned=0)
    s = g2.play(s, "ascend e1 right")
    assert s.crowned == 1 and s.pyramid[0] == kind("Stewart")
    while g2.current_player(s) == CHANCE or s.phase == FILL:
        s = g2.play(s, g2.legal_actions(s)[0]) if s.phase == FILL else reveal_top(g2, s, "Hamilton*")
    legal = g2.legal_actions(s)
    assert all(a >= A.BETRAY0 for a in legal) and A.PASS in legal
    with pytest.raises(IllegalActionError, match="no longer ascend"):
        g2.play(s, "ascend a2 left")


# ---- Choosing to Pass ---------------------------------------------------------------------
def test_pass_only_after_a_king_is_crowned(g2):
    """Choosing to Pass: 'Once a King has been crowned, players can choose to pass'."""
    s = position(g2, BASE, hands=[{"Stewart": 1}, {}])
    assert A.PASS not in g2.legal_actions(s)
    with pytest.raises(IllegalActionError, match="only once a King"):
        g2.play(s, "pass")


def test_passed_players_sit_out_and_game_ends_when_all_passed(g3):
    """Choosing to Pass: 'Players who choose to pass cannot re-enter the game and must sit out
    until all players have passed'. Determining the Winner: 'Once everyone has passed, the game
    is over.'"""
    s = position(g3, full_pyramid(), hands=[{"Stewart": 1}, {"Stewart": 1}, {}])
    s = g3.play(s, "pass")  # player 0 is out
    assert g3.current_player(s) == 1
    s = g3.play(s, "pass")
    assert g3.current_player(s) == 2
    assert g3.legal_actions(s) == [A.PASS]  # no influence cards: passing is all that is left
    s = g3.play(s, "pass")
    assert g3.current_player(s) == TERMINAL


def test_passed_player_is_skipped(g3):
    s = position(g3, full_pyramid(), hands=[{"Stewart": 1}, {"Stewart": 1}, {"Stewart": 1}], passed=0b010)
    s = g3.play(s, "pass")
    assert g3.current_player(s) == 2


# ---- Determining the Winner ---------------------------------------------------------------
def test_rulebook_example_alex_six_barry_five():
    """Example: 'A Macleod has been named king. Both guardians are of the Stewart clan, as is one
    of the noblemen. The remaining two noblemen are of the Macbeth and Bruce clans. Alex's family
    ... Buchanan (0 points), a Stewart (2+2+1 points) and a Macbeth (1 point) for a total of six
    points. Barry's family contains a Macleod (3 points), a Macbeth (1 point) and a Bruce (1
    point) for a total of five points. Alex wins!'"""
    g = kingmaker.make("kings-kilt", players=2)
    cells = dict(full_pyramid(), e2="Stewart")
    s = position(g, cells, family=[("Buchanan", "Stewart", "MacBeth"), ("MacLeod", "MacBeth", "Bruce")],
                 hands=[{}, {}])
    assert score_family(s.pyramid, s.family[0]) == 6
    assert score_family(s.pyramid, s.family[1]) == 5
    s = g.play(s, "pass")
    s = g.play(s, "pass")
    assert g.is_terminal(s)
    assert g.scores(s) == (6, 5)
    assert g.returns(s) == (1.0, 0.0)
    v = g.view(s, 1)
    assert v["winners"] == [0] and v["families"][0] == ["Buchanan", "MacBeth", "Stewart"]


def test_perfect_score_is_ten():
    """Determining the Winner: 'Ten points is considered a perfect score.'"""
    pyr = [-1] * CELLS
    for name in ("f1", "e1", "e2", "d1", "d2", "d3"):
        pyr[CELL_BY_NAME[name]] = C["Stewart"]
    assert score_family(tuple(pyr), (C["Stewart"], C["Bruce"], C["Wallace"])) == 3 + 2 * 2 + 3 * 1


def test_tie_broken_by_most_remaining_influence_cards(g2):
    """Determining the Winner: 'Ties are resolved in favor of the player with the most remaining
    influence cards.'"""
    s = position(g2, full_pyramid(), family=[("Stewart", "Bruce", "Hamilton"), ("Stewart", "Bruce", "Douglas")],
                 hands=[{"MacBeth": 1}, {"MacBeth": 2}])
    s = play(g2, s, "pass", "pass")
    assert g2.scores(s)[0] == g2.scores(s)[1]
    assert g2.returns(s) == (0.0, 1.0)


def test_still_tied_players_share_the_throne(g3):
    """Determining the Winner: 'If the game is still tied, the players must share the throne.'"""
    s = position(g3, full_pyramid(), family=[("Stewart", "Bruce", "Hamilton")] * 2 + [("Douglas", "Buchanan", "Hamilton")],
                 hands=[{"Douglas": 1}, {"Douglas": 1}, {}])
    s = play(g3, s, "pass", "pass", "pass")
    assert g3.returns(s) == (0.5, 0.5, 0.0)


# ---- Views -----------------------------------------------------------------------------
def test_views_show_own_cards_and_only_counts_of_others(g3):
    """A player sees their own family and influence cards, revealed family cards of others,
    the pyramid, the draw pile's top, and counts of others' hands; nothing else."""
    s = position(g3, BASE, family=[("Bruce", "Douglas", "Wallace"), ("Stewart", "MacBeth", "Hamilton"),
                                   ("Buchanan", "MacLeod", "Wallace")],
                 hands=[{"Stewart": 2}, {"Bruce": 1}, {}], revealed=[(), ("Stewart",), ()])
    v = g3.view(s, 0)
    assert v["influence"] == {"Stewart": 2}
    assert [f["clan"] for f in v["family"]] == ["Bruce", "Douglas", "Wallace"]
    assert v["hand_sizes"] == [2, 1, 0]
    assert v["revealed_family"][1] == ["Stewart"]
    # Player 1's face-down family cards and hand change: player 0's view does not.
    other = State(s.phase, s.deal, s.pyramid, s.top, s.unseen, s.pile_n, s.discards, s.removed,
                  (s.family[0], tuple(sorted((C["Stewart"], C["Bruce"], C["Douglas"]))), s.family[2]),
                  s.revealed, (s.hands[0], tuple(1 if k == C["Wallace"] else 0 for k in range(8)), s.hands[2]),
                  s.current, s.vacuum, s.crowned, s.noblemen, s.guardians, s.pending, s.passed)
    assert g3.view(other, 0) == v and g3.view(other, 2) == g3.view(s, 2)
    assert g3.view(other, 1) != g3.view(s, 1)
    spectator = g3.view(s, None)
    assert "family" not in spectator and "influence" not in spectator


def test_sample_hidden_keeps_view_and_redeals_secrets(g3):
    s = position(g3, BASE, family=[("Bruce", "Douglas", "Wallace"), ("Stewart", "MacBeth", "Hamilton"),
                                   ("Buchanan", "MacLeod", "Wallace")],
                 hands=[{"Stewart": 2}, {"Bruce": 1}, {"Hamilton": 3}], revealed=[(), ("Stewart",), ()])
    differ = 0
    for seed in range(20):
        t = g3.sample_hidden(s, 0, random.Random(seed))
        assert g3.view(t, 0) == g3.view(s, 0)
        assert t.family[0] == s.family[0] and t.hands[0] == s.hands[0]
        assert C["Stewart"] in t.family[1]
        assert all(len(set(f)) == 3 for f in t.family)
        differ += t != s
    assert differ >= 15


def test_log_hides_secret_deals_from_other_players(g2):
    m = kingmaker.Match(g2, [None, None], seed=11)
    for _ in range(6):
        m.step_chance()
    log1 = m.log_for(1)
    assert all("you are dealt" not in line for line in log1[0::2])
    assert all(line.startswith("you are dealt") for line in log1[1::2])
    first_card = CLANS[m.log[0].action - A.CARD0]
    assert first_card not in log1[0]


def test_notation_parses_case_insensitively(g2):
    s = position(g2, BASE)
    assert g2.parse_action(s, "ASCEND A2 Left") == A.ascend(CELL_BY_NAME["a2"], 0)
    with pytest.raises(kingmaker.InvalidActionError):
        g2.parse_action(s, "ascend z9 left")


def test_setup_starts_with_chance(g2):
    s = g2.new_initial_state()
    assert s.phase == SETUP_FAMILY and g2.current_player(s) == CHANCE
    assert g2.is_terminal(s) is False
    assert END > PLAY


def _exhausted(s: State) -> State:
    """The same position with nothing left to draw: the unseen cards are set out of the game."""
    return State(s.phase, 0, s.pyramid, -1, (0,) * 16, 0, s.discards, s.unseen, s.family, s.revealed,
                 s.hands, s.current, -1, s.crowned, s.noblemen, s.guardians, (), s.passed)


def test_ruling_kk8_base_vacuum_stays_empty_when_no_card_is_left(g2):
    """Ruling KK-8: with the draw pile and the discards empty, a base-row vacuum stays empty."""
    s = _exhausted(position(g2, BASE, top=None))
    s = g2.play(s, "ascend a2 left")
    assert s.pyramid[CELL_BY_NAME["a2"]] == -1
    assert g2.current_player(s) == 1 and s.phase == PLAY


def test_ruling_kk12_player_without_a_legal_move_must_pass_and_is_out(g2):
    """Ruling KK-12: a player with no ascent and no betrayal passes, and is out."""
    cells = {"a1": "Bruce", "a3": "Douglas", "a5": "Stewart"}  # no card has a neighbour
    s = _exhausted(position(g2, cells, top=None))
    assert g2.legal_actions(s) == [A.PASS]
    s = g2.play(s, "pass")
    assert s.passed == 1 and g2.current_player(s) == 1


def test_noblemen_reward_two_players_one_card(g2):
    """Kings, Guardians, and Noblemen: in a 2-player game the Noblemen card still forces one
    family card face up (only the Guardians side differs)."""
    cells = dict(BASE, b1="Hamilton", b2="Buchanan", c1="Stewart", c2="Wallace")
    s = position(g2, cells, top="Hamilton*")
    s = g2.play(s, "ascend c1 right")
    while s.phase == FILL:
        s = g2.play(s, g2.legal_actions(s)[0])
    if g2.current_player(s) == CHANCE:
        s = reveal_top(g2, s, "Hamilton*")
    assert s.pending == (1,)


def test_reward_goes_only_to_the_first_player_to_reach_the_row(g2):
    """Kings, Guardians, and Noblemen: the rewards go to the *first* player who ascends there."""
    cells = dict(BASE, b1="Hamilton", b2="Buchanan", b3="Bruce", b4="Hamilton", c1="Stewart", c2="Wallace",
                 c3="Douglas", d1="MacBeth")
    s = position(g2, cells, noblemen=1, current=0)
    s = g2.play(s, "ascend c2 right")  # a second card reaches the Noblemen row
    while s.phase == FILL:
        s = g2.play(s, g2.legal_actions(s)[0])
    assert s.noblemen == 1 and s.pending == ()
