"""Kingpins rules, one test per rule, named after the rulebook section it covers.

Positions are drawn as stacks bottom first, e.g. ``N: V11 M10`` is a black 11
with a red 10 on top. M, D are the red families, V, B the black ones; Fr/Fb a
Femme Fatale, Hr/Hb a Hideout.
"""

from __future__ import annotations

import pytest
from kingpins_helpers import deal, k, make, play, position

from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.core.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from kingmaker.games.kingpins import actions as A
from kingmaker.games.kingpins.data import FULL_DECK, from_kinds, kinds
from kingmaker.games.kingpins.state import DEAL, DRAW, END, PLAY


def hand_codes(game, s, p):
    from kingmaker.games.kingpins.data import CODE

    return sorted(CODE[x] for x in kinds(s.hands[p]))


# ---- set-up -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deal_five_cards_each_and_flip_four_recruitment_stacks(players):
    """Set-up: "Shuffle the deck and deal five cards to each player. Place the remaining cards
    in a face down stack ... This is the stockpile. Flip the top four cards of the stockpile
    face up and place them north, south, east, and west of the stockpile."""
    g = make(players)
    s = g.new_initial_state()
    steps = 0
    while g.current_player(s) == CHANCE:
        s = g.apply(s, g.chance_outcomes(s)[0][0])
        steps += 1
    assert steps == 5 * players + 4
    assert [h.bit_count() for h in s.hands] == [5] * players
    assert all(len(s.stacks[t]) == 1 for t in range(4))  # N, E, S, W
    assert all(not s.stacks[t] for t in range(4, 8))  # the corners start empty
    assert s.unseen.bit_count() == 56 - 5 * players - 4
    assert g.current_player(s) == 0 and s.phase == PLAY


def test_setup_stockpile_order_is_never_stored():
    """Set-up: the stockpile is face down; it is kept as a set and each card is dealt lazily,
    with probability copies / cards left."""
    g = make(2)
    s = g.new_initial_state()
    assert s.unseen == FULL_DECK  # a set, not a sequence
    outcomes = dict(g.chance_outcomes(s))
    assert outcomes[A.card(k("M7"))] == pytest.approx(1 / 56)
    assert outcomes[A.card(k("Fr"))] == pytest.approx(2 / 56)  # two red Femme Fatales
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_setup_ruling_femme_fatale_turned_up_for_a_recruitment_stack_is_shuffled_back():
    """Ruling KP-3: a Femme Fatale can never lie on a stack, so one turned up for a
    recruitment stack goes back into the stockpile: the turn-up is drawn from the rest."""
    g = make(2)
    s = g.new_initial_state()
    while s.deal < g.hand_deal:
        # Deal the players ranked cards only, so every Femme Fatale is still in the stockpile.
        s = g.apply(s, A.card(s.deal))
    outcomes = dict(g.chance_outcomes(s))
    assert A.card(k("Fr")) not in outcomes and A.card(k("Fb")) not in outcomes
    assert A.card(k("Hr")) in outcomes  # a Hideout may be turned up
    assert sum(outcomes.values()) == pytest.approx(1.0)
    with pytest.raises(IllegalActionError):
        g.play(s, "card Fr")
    # Dealing to the players, a Femme Fatale comes like any card.
    assert A.card(k("Fr")) in dict(g.chance_outcomes(g.new_initial_state()))


def test_gameplay_ruling_each_round_reshuffles_and_the_first_player_rotates():
    """Ruling KP-2: each round is dealt from the whole deck again, and round r (from 1) is
    opened by player (r - 1) mod n."""
    g = make(3)
    s = position(g, ["M1", "V5 V6", "B9"], {"N": "V2"}, current=0)
    s = play(g, s, "M1 on N")  # player 0 goes out: round 1 ends
    assert s.phase == DEAL and s.round == 1 and s.unseen == FULL_DECK
    assert all(not st for st in s.stacks) and s.hands == (0, 0, 0)
    while g.current_player(s) == CHANCE:
        s = g.apply(s, g.chance_outcomes(s)[-1][0])
    assert g.current_player(s) == 1


# ---- gameplay: the six plays ------------------------------------------------------------


def test_gameplay_play_a_kingpin_to_an_empty_corner():
    """Gameplay: "Play a kingpin (12) from your hand to start a new syndicate stack in an empty
    space on one of the four corner positions around the stockpile (NE, SE, NW, SW)."""
    g = make(2)
    # NE holds B12 already; SE, SW, NW are empty.
    s = position(g, ["M12 M11 V3", "D4"], {"N": "B9", "NE": "B12"})
    legal = {g.action_to_str(s, a) for a in g.legal_actions(s)}
    assert {"M12 to SE", "M12 to SW", "M12 to NW"} <= legal
    assert "M12 to NE" not in legal
    s2 = play(g, s, "M12 to SW")
    assert s2.stacks[6] == (k("M12"),)
    with pytest.raises(IllegalActionError, match="only a kingpin"):
        g.play(s, "M11 to SE")


def test_gameplay_play_a_card_one_rank_lower_in_the_opposite_colour_on_any_stack():
    """Gameplay: "Play a card from your hand to any stack. The card you play must be the next
    lowest in rank, but opposite in color (e.g., You can play a red 10 on a black 11)."""
    g = make(2)
    # N: V11 (black 11)   NE: B12 (black kingpin)   E: M11 (red 11)
    s = position(g, ["M10 D11 B10 V9", "D4"], {"N": "V11", "NE": "B12", "E": "M11"})
    s2 = play(g, s, "M10 on N")  # the rulebook's example: a red 10 on a black 11
    assert s2.stacks[0] == (k("V11"), k("M10"))
    assert "D11 on NE" in {g.action_to_str(s, a) for a in g.legal_actions(s)}  # on a syndicate
    assert "B10 on E" in {g.action_to_str(s, a) for a in g.legal_actions(s)}
    with pytest.raises(IllegalActionError, match="opposite colour"):
        g.play(s, "B10 on N")  # same colour
    with pytest.raises(IllegalActionError, match="one rank lower"):
        g.play(s, "V9 on E")  # two ranks lower
    assert s.hands[0].bit_count() == 4 and s.stacks[0] == (k("V11"),)  # unchanged


def test_gameplay_move_an_entire_stack_when_its_bottom_card_fits():
    """Gameplay: "Move an entire stack onto any other stack. This is only possible if the bottom
    card of the stack being moved is one rank lower and opposite in color to the top card of
    another stack (e.g., a stack of R4-B3-R2 can be moved onto a stack of R6-B5)."""
    g = make(2)
    # W: M4 V3 D2 (R4-B3-R2)    NE: M12 ... B5 (R6-B5 on top)
    s = position(g, ["V1", "D1"], {"W": "M4 V3 D2", "NE": "D12 B11 M10 V9 D8 V7 M6 B5"})
    s2 = play(g, s, "move W onto NE")
    assert s2.stacks[3] == ()
    assert s2.stacks[4][-4:] == (k("B5"), k("M4"), k("V3"), k("D2"))
    assert s2.hands == s.hands  # a move plays no card


def test_gameplay_recruitment_stacks_move_onto_syndicates_but_a_syndicate_never_moves():
    """Gameplay: "Recruitment stacks can be moved onto syndicate stacks, and vice versa."
    Ruling KP-5: a syndicate's bottom card is a kingpin, and nothing is one rank above 12,
    so the "vice versa" never arises: a syndicate stack cannot be moved."""
    g = make(2)
    # E: D11 ...    SE: V12 (a syndicate)   N: B13 does not exist, so SE fits nowhere.
    s = position(g, ["V1", "D1"], {"E": "D11", "SE": "V12", "N": "M8"})
    moves = [g.action_to_str(s, a) for a in g.legal_actions(s) if A.MOVE0 <= a < A.END_TURN]
    assert moves == ["move E onto SE"]
    with pytest.raises(IllegalActionError, match="bottom card of SE"):
        g.play(s, "move SE onto E")


def test_gameplay_any_card_onto_an_empty_original_recruitment_stack():
    """Gameplay: "Play any card from your hand to one of the original (N, S, E, W) recruitment
    stacks that has become empty." Ruling KP-4: any card, a Femme Fatale too."""
    g = make(2)
    s = position(g, ["M9 V12 Hb Fr", "D4"], {"N": "B6", "E": "D2", "S": "V7"})  # W is empty
    legal = {g.action_to_str(s, a) for a in g.legal_actions(s)}
    assert {"M9 to W", "V12 to W", "Hb to W", "Fr to W"} <= legal
    assert "M9 to NE" not in legal and "Fr to NE" not in legal  # an empty corner takes only a kingpin
    s2 = play(g, s, "M9 to W")
    assert s2.stacks[3] == (k("M9"),)


def test_gameplay_ruling_kp4_a_femme_fatale_may_go_to_an_empty_original_stack_which_is_then_dead():
    """Gameplay: "Play any card from your hand to one of the original (N, S, E, W) recruitment
    stacks that has become empty." Ruling KP-4: a Femme Fatale may go there too; she has no
    rank, so nothing is ever played on or under her and the stack never moves: the dead stack
    is the player's choice. She is never placed on a card or in a corner."""
    g = make(2)
    s = position(g, ["Fr Fb M10 B5 Hr", "D4"], {"N": "B6", "E": "D2", "S": "V11"})  # W is empty
    s2 = play(g, s, "Fb to W")
    assert s2.stacks[3] == (k("Fb"),) and hand_codes(g, s2, 0) == ["B5", "Fr", "Hr", "M10"]
    legal = {g.action_to_str(s2, a) for a in g.legal_actions(s2)}
    assert not [x for x in legal if "W" in x.split()]  # nothing on, under, onto or from W
    assert "M10 on S" in legal  # the other stacks play on as before
    s3 = position(g, ["Fr B11 Hr", "D4"], {"N": "Fb", "E": "D12", "S": "V11"})  # nothing fits under Fb
    assert not [x for x in (g.action_to_str(s3, a) for a in g.legal_actions(s3)) if "N" in x.split()]
    with pytest.raises(IllegalActionError, match="has no rank"):
        g.play(s, "Fr on N")  # never on a card
    with pytest.raises(IllegalActionError, match="empty original recruitment stack"):
        g.play(s, "Fr to NE")
    assert g.hand_score(from_kinds([k("Fr")])) == 5  # kept, she still scores her value


def test_gameplay_discard_a_femme_fatale_to_play_a_card_under_a_stack():
    """Gameplay: "Discard a femme fatale card to play a different card from your hand to the
    bottom of any stack. The card played must be one rank higher than the card currently on
    the bottom of the stack, and opposite in color."""
    g = make(2)
    # N: B5 M4    the bottom card is a black 5; a red 6 may go under it.
    s = position(g, ["Fb M6 V6 D1", "D4"], {"N": "B5 M4"})
    s2 = play(g, s, "M6 under N with Fb")
    assert s2.stacks[0] == (k("M6"), k("B5"), k("M4"))
    assert hand_codes(g, s2, 0) == ["D1", "V6"]
    assert kinds(s2.discards) == [k("Fb")]
    with pytest.raises(IllegalActionError, match="one rank higher than the bottom card"):
        g.play(s, "V6 under N with Fb")  # same colour as the bottom card
    with pytest.raises(IllegalActionError, match="no Femme Fatale"):
        g.play(s, "M6 under N with Fr")  # no red Femme Fatale in hand


def test_gameplay_femme_fatale_colour_is_the_players_choice():
    """Ruling KP-4: a Femme Fatale's colour changes nothing; with both in hand, either may be
    discarded, so both moves are offered."""
    g = make(2)
    s = position(g, ["Fb Fr M6", "D4"], {"N": "B5"})
    legal = {g.action_to_str(s, a) for a in g.legal_actions(s)}
    assert {"M6 under N with Fr", "M6 under N with Fb"} <= legal


def test_gameplay_play_a_hideout_on_a_1_of_the_opposite_colour():
    """Gameplay: "Play a hideout to any stack. This is only possible if the top card of the
    stack is a 1 and opposite in color to the hideout." (It plays as rank 0.)"""
    g = make(2)
    s = position(g, ["Hr Hb V3", "D4"], {"N": "B2 M1", "E": "D2 V1"})
    legal = {g.action_to_str(s, a) for a in g.legal_actions(s)}
    assert "Hb on N" in legal and "Hr on E" in legal
    assert "Hr on N" not in legal and "Hb on E" not in legal
    s2 = play(g, s, "Hb on N")
    assert s2.stacks[0][-1] == k("Hb")
    with pytest.raises(IllegalActionError, match="Hideout goes only on a 1"):
        g.play(s, "Hr on N")
    # Nothing is below a Hideout: no card goes on it.
    assert not [a for a in g.legal_actions(s2) if a < A.UNDER0 and a % 8 == 0]


def test_gameplay_any_number_of_plays_in_a_turn():
    """Gameplay: "On a turn, any number of plays": the player keeps the turn until 'end turn'."""
    g = make(2)
    s = position(g, ["M10 V9 D8 B7", "D4"], {"N": "B11"})
    s = play(g, s, "M10 on N", "V9 on N", "D8 on N")
    assert g.current_player(s) == 0 and s.played
    assert hand_codes(g, s, 0) == ["B7"]


# ---- turn end and round end ---------------------------------------------------------------


def test_gameplay_end_the_turn_by_drawing_a_card():
    """Gameplay: "If you have cards left but cannot or do not want to take any more actions,
    end your turn by drawing a card from the stockpile."""
    g = make(2)
    s = position(g, ["M10", "D4"], {"N": "B2"})
    s = play(g, s, "end turn")
    assert s.phase == DRAW and g.current_player(s) == CHANCE
    before = s.unseen.bit_count()
    s = deal(g, s, "V7")
    assert hand_codes(g, s, 0) == ["M10", "V7"]
    assert s.unseen.bit_count() == before - 1
    assert g.current_player(s) == 1 and not s.played


def test_gameplay_stockpile_runs_out_play_continues_without_drawing():
    """Gameplay: "If the stockpile runs out during the round, continue to play as normal but
    do not draw."""
    g = make(2)
    s = position(g, ["M10 D3", "D4 V5"], {"N": "B2"}, stockpile="")
    s = play(g, s, "end turn")
    assert s.phase == PLAY and g.current_player(s) == 1
    assert hand_codes(g, s, 0) == ["D3", "M10"]


def test_round_end_a_player_with_no_cards_ends_the_round():
    """Round end (a): "when one player manages to get rid of all the cards from their hand";
    "If, after playing a card, you have none left in hand, the round ends." The round ends at
    once, mid-turn, without a draw."""
    g = make(2)
    s = position(g, ["M10", "V11 D4"], {"N": "B11"})
    s = play(g, s, "M10 on N")
    assert s.phase == DEAL and s.round == 1
    assert s.history == ((0, 15),)  # V11 scores 11, D4 scores 4
    assert s.last_hands == (0, from_kinds([k("V11"), k("D4")]))


def test_round_end_last_cards_slipped_under_with_a_femme_fatale():
    """Round end (a): discarding the Femme Fatale and playing the last card empties the hand."""
    g = make(2)
    s = position(g, ["Fr M6", "V2"], {"N": "B5"})
    s = play(g, s, "M6 under N with Fr")
    assert s.phase == DEAL and s.history == ((0, 2),)


def test_round_end_stockpile_empty_and_all_players_passed_consecutively():
    """Round end (b): "when the stockpile has run out and all players have passed
    consecutively". Ruling KP-6: a pass is a turn ended with no play or move while the
    stockpile is empty."""
    g = make(3)
    s = position(g, ["M10", "D4", "V9 B9"], {"N": "B2"}, stockpile="")
    s = play(g, s, "end turn", "end turn")
    assert s.passes == 2 and s.phase == PLAY
    s = play(g, s, "end turn")
    assert s.phase == DEAL and s.round == 1
    assert s.history == ((10, 4, 18),)


def test_round_end_a_play_breaks_the_run_of_passes():
    """Round end (b), ruling KP-6: passes must be consecutive; a turn with a play starts the
    count again."""
    g = make(2)
    # N: B2.  Player 0 holds nothing that fits; player 1 holds the red 1.
    s = position(g, ["M11 V1", "D1 V9"], {"N": "B2"}, stockpile="")
    s = play(g, s, "end turn")  # player 0 passes
    assert s.passes == 1
    s = play(g, s, "D1 on N", "end turn")  # player 1 plays: the run starts again
    assert s.passes == 0 and s.phase == PLAY and g.current_player(s) == 0
    s = play(g, s, "end turn")  # player 0 passes
    assert s.passes == 1 and s.phase == PLAY
    s = play(g, s, "end turn")  # player 1 passes too: two in a row end the round
    assert s.phase == DEAL and s.history == ((12, 9),)


def test_round_end_a_turn_ended_with_a_draw_is_not_a_pass():
    """Ruling KP-6: while the stockpile has cards, ending a turn draws; it never counts as a
    pass, so the round goes on however many turns end that way."""
    g = make(2)
    s = position(g, ["M10", "D4"], {"N": "B2"}, stockpile="V7 V8")
    s = play(g, s, "end turn")
    s = deal(g, s, "V7")
    s = play(g, s, "end turn")
    s = deal(g, s, "V8")
    assert s.passes == 0 and s.phase == PLAY and s.unseen == 0


# ---- scoring and game end -------------------------------------------------------------------


def test_scoring_cards_left_in_hand_score_their_values():
    """Round end: "Score all cards remaining in your hand at the end of the round ... The scoring
    value of each card is indicated in its bottom right corner." Designed values (KP-D3): a card
    scores its rank, a kingpin 15, a Femme Fatale 5, a Hideout 2 (abilities off here)."""
    g = make(2, abilities=False)
    assert g.hand_score(from_kinds([k("M12")])) == 15
    assert g.hand_score(from_kinds([k("Fr"), k("Fb")])) == 10
    assert g.hand_score(from_kinds([k("Hr")])) == 2
    assert g.hand_score(from_kinds([k("V1"), k("D7"), k("B11")])) == 19
    s = position(g, ["M3", "V12 Fr Hb D9"], {"N": "B4"})
    s = play(g, s, "M3 on N")
    assert s.history == ((0, 31),) and s.totals == (0, 31)


def test_scoring_add_your_score_for_the_round_to_your_running_total():
    """Round end: "Add your score for the round to your running total." """
    g = make(2)
    s = position(g, ["M3", "V5"], {"N": "B4"}, round=1, history=((7, 0),),
                 last_hands=(from_kinds([k("D7")]), 0))
    assert s.totals == (7, 0)
    s = play(g, s, "M3 on N")
    assert s.totals == (7, 5) and s.history == ((7, 0), (0, 5)) and s.round == 2


def test_game_end_after_the_fifth_round_the_lowest_total_wins():
    """Game end: "After the fifth round is complete, the game is over ... The player with the
    lowest total score is the winner." Returns rank the players (ruling KP-8)."""
    g = make(3)
    history = ((0, 10, 20), (5, 0, 9), (3, 4, 0), (8, 2, 6))  # totals 16, 16, 35
    s = position(g, ["M3", "V5", "D9"], {"N": "B4"}, round=4, history=history)
    s = play(g, s, "M3 on N")  # round 5: 0, 5, 9 -> totals 16, 21, 44
    assert s.phase == END and g.current_player(s) == TERMINAL
    assert s.totals == (16, 21, 44)
    assert g.winners(s) == (0,)
    assert g.returns(s) == (1.0, 0.5, 0.0)
    with pytest.raises(IllegalActionError):
        g.play(s, "end turn")


def test_game_end_a_tie_goes_to_the_player_who_won_the_most_rounds():
    """Game end: "If there is a tie for lowest total score, the tied player who won the most
    rounds is the winner." Ruling KP-7: a round is won by the lowest round score."""
    g = make(2)
    # Player 0 won rounds 1, 2 and 4; player 1 won round 3. Totals 15 and 20.
    history = ((0, 6), (0, 4), (15, 0), (0, 10))
    # N: M5.  Player 1 goes out with the black 4; player 0 keeps 3 + 2.
    s = position(g, ["M3 D2", "V4"], {"N": "M5"}, round=4, history=history, current=1)
    s = play(g, s, "V4 on N")
    assert s.phase == END and s.totals == (20, 20)
    assert g.rounds_won(s) == (3, 2)
    assert g.winners(s) == (0,)
    assert g.returns(s) == (1.0, 0.0)


def test_game_end_a_tie_on_total_and_rounds_won_is_shared():
    """Game end, issue: "a tie goes to who won the most rounds, and then is shared." Tied
    players share the mean of their places' rank points."""
    g = make(3)
    # Totals 12, 12, 28; rounds won: player 0 rounds 1 and 4, player 1 rounds 2 and 3.
    history = ((0, 6, 9), (6, 0, 9), (6, 0, 1), (0, 6, 9))
    s = position(g, ["M2", "D2", "D9 B9"], {"N": "B4"}, round=4, history=history, stockpile="")
    s = play(g, s, "end turn", "end turn", "end turn")  # all pass: round 5 scores 2, 2, 18
    assert s.phase == END and s.totals == (14, 14, 46)
    assert g.rounds_won(s) == (3, 3, 0)  # round 5 is won by both players 0 and 1
    assert g.ranking(s) == [[0, 1], [2]]
    assert g.winners(s) == (0, 1)
    assert g.returns(s) == (0.75, 0.75, 0.0)


def test_game_end_returns_reflect_the_ranking_with_four_players():
    """Ruling KP-8: rank points 1, 2/3, 1/3, 0 from first to last; they sum to n / 2."""
    g = make(4)
    history = ((0, 6, 9, 12), (0, 6, 9, 12), (0, 6, 9, 12), (0, 6, 9, 12))
    s = position(g, ["M2", "D2", "V3", "B3"], {"N": "B4"}, round=4, history=history,
                 stockpile="")
    s = play(g, s, "end turn", "end turn", "end turn", "end turn")
    assert s.totals == (2, 26, 39, 51)
    assert g.returns(s) == pytest.approx((1.0, 2 / 3, 1 / 3, 0.0))
    assert sum(g.returns(s)) == pytest.approx(g.info.constant_sum)


# ---- notation and errors ------------------------------------------------------------------


def test_notation_every_move_type_round_trips():
    """Every legal action has notation that parses back to it."""
    g = make(2)
    s = position(g, ["Fr M6 M12 V1 Hr", "D4"], {"N": "B5", "E": "M2", "W": "V3"})
    texts = [g.action_to_str(s, a) for a in g.legal_actions(s)]
    assert "M6 under N with Fr" in texts and "M12 to NE" in texts and "move E onto W" in texts
    assert "V1 on E" in texts and "end turn" in texts
    for a in g.legal_actions(s):
        assert g.parse_action(s, g.action_to_str(s, a)) == a
    assert g.parse_action(s, "play m12 to ne") == g.parse_action(s, "M12 to NE")
    assert g.parse_action(s, "pass") == A.END_TURN


def test_errors_malformed_text_and_illegal_moves_leave_the_state_unchanged():
    """Bad input gets a typed error naming what is wrong; the state is unchanged."""
    g = make(2)
    s = position(g, ["M6", "D4"], {"N": "B5"})
    before = g.to_json(s)
    with pytest.raises(InvalidActionError):
        g.play(s, "M6 sideways N")
    with pytest.raises(IllegalActionError, match="you do not hold"):
        g.play(s, "D6 on N")
    with pytest.raises(IllegalActionError, match="only after playing an Enforcer"):
        g.play(s, "keep")
    assert g.to_json(s) == before


def test_errors_say_why_a_move_or_a_slip_under_is_illegal():
    """Each illegal move type gets its own reason."""
    g = make(2)
    # N: B5   E: M9   W is empty.
    s = position(g, ["Fr M6 D12", "D4"], {"N": "B5", "E": "M9"})
    cases = {
        "move N onto N": "onto itself",
        "move W onto N": "W is empty",
        "move N onto W": "W is empty",
        "move N onto E": "bottom card of N",
        "M6 under W with Fr": "W is empty",
        "D12 under E with Fr": "one rank higher than the bottom card",
        "Fr under N with Fr": "Femme Fatale plays a different card",
        "discard M6": "only after playing an Enforcer",
    }
    with pytest.raises(InvalidActionError, match="dealt by chance"):
        g.play(s, "card M7")  # a chance outcome's notation at a decision
    for text, reason in cases.items():
        with pytest.raises(IllegalActionError, match=reason):
            g.play(s, text)
    s2 = play(g, s, "D12 to NE", "end turn")  # a draw is due: chance acts, not a player
    with pytest.raises(NotYourTurnError, match="waiting for a chance outcome"):
        g.play(s2, "end turn", 0)


def test_game_end_outcome_names_the_winner_the_rule_and_the_tie_break():
    """Game End: lowest total wins; "If there is a tie for lowest total score, the tied player
    who won the most rounds is the winner" (KP-7); a tie on both is shared (KP-8). outcome()
    names the rule that decided, with "1 point" and "1 round" in the singular."""
    g = make(3)
    history = ((0, 10, 20), (5, 0, 9), (3, 4, 0), (8, 2, 6))
    s = play(g, position(g, ["M3", "V5", "D9"], {"N": "B4"}, round=4, history=history), "M3 on N")
    o = g.outcome(s)
    assert o == {"winners": [0], "reason": "lowest_total",
                 "text": "player 0 wins with the lowest total, 16 points (player 1: 21 points, player 2: 44 points)"}
    assert g.figures(s) == {"total": (16, 21, 44), "rounds_won": (2, 2, 1)}
    g2 = make(2)
    history = ((0, 6), (0, 4), (15, 0), (0, 10))
    s = play(g2, position(g2, ["M3 D2", "V4"], {"N": "M5"}, round=4, history=history, current=1), "V4 on N")
    assert g2.outcome(s) == {"winners": [0], "reason": "tie_rounds_won",
                             "text": "tie on 20 points, broken by rounds won: player 0 wins with 3 rounds won "
                                     "(player 1: 2)"}
    history = ((0, 1), (1, 0), (0, 0), (0, 0))
    s = play(g2, position(g2, ["M3", "V4"], {"N": "B4"}, round=4, history=history), "M3 on N")
    assert s.totals == (1, 5) and g2.outcome(s)["text"].startswith("player 0 wins with the lowest total, 1 point")
    history = ((0, 1), (1, 0), (0, 0), (4, 0))
    s = play(g2, position(g2, ["M3", "V4"], {"N": "B4"}, round=4, history=history), "M3 on N")
    assert s.totals == (5, 5)
    assert g2.outcome(s) == {"winners": [0, 1], "reason": "shared",
                             "text": "tie on 5 points and 3 rounds won: player 0 and player 1 share the win"}
