"""Kingpins special abilities (designed, ruling KP-D4), one test per ability and its limits.

Rulebook: "When you play a card, resolve its special ability (if any) immediately. If the
ability cannot be resolved, simply ignore it." and "Score all cards remaining in your hand
at the end of the round (taking all special abilities into account)."
"""

from __future__ import annotations

import pytest
from kingpins_helpers import deal, k, make, play, position

from kingmaker.core.api import CHANCE
from kingmaker.core.errors import IllegalActionError
from kingmaker.games.kingpins import actions as A
from kingmaker.games.kingpins.data import ABILITIES, CODE, from_kinds, kinds
from kingmaker.games.kingpins.state import COLLECT, DEAL, DRAW, PLAY, RUB_OUT


def codes(mask):
    return sorted(CODE[x] for x in kinds(mask))


def test_ability_all_clear_a_lookout_means_no_draw_this_turn():
    """All Clear: "When you play a Lookout, you draw no card at the end of this turn." """
    g = make(2)
    # N: B2.  The red 1 (a Lookout) goes on it.
    s = position(g, ["M1 V9", "D4"], {"N": "B2"})
    s = play(g, s, "M1 on N")
    assert s.no_draw
    s = play(g, s, "end turn")
    assert s.phase == PLAY and g.current_player(s) == 1  # no chance node: nothing drawn
    assert codes(s.hands[0]) == ["V9"]
    assert not s.no_draw  # only for that turn


def test_ability_all_clear_the_ended_turn_is_not_a_pass():
    """All Clear with an empty stockpile changes nothing: a turn with a play is no pass."""
    g = make(2)
    s = position(g, ["M1 V9", "D4"], {"N": "B2"}, stockpile="")
    s = play(g, s, "M1 on N", "end turn")
    assert s.passes == 0


def test_ability_collect_a_bookie_makes_the_next_player_draw():
    """Collect: "When you play a Bookie, the next player draws one card from the stockpile." """
    g = make(3)
    # N: V6.  The red 5 (a Bookie) goes on it; player 1 then draws.
    s = position(g, ["M5 V9", "D4", "B3"], {"N": "V6"})
    s = play(g, s, "M5 on N")
    assert s.phase == COLLECT and g.current_player(s) == CHANCE
    s = deal(g, s, "B8")
    assert codes(s.hands[1]) == ["B8", "D4"]
    assert codes(s.hands[2]) == ["B3"]
    assert g.current_player(s) == 0 and s.phase == PLAY  # the turn goes on


def test_ability_collect_is_ignored_when_the_stockpile_is_empty():
    """Collect cannot be resolved with an empty stockpile: it is ignored."""
    g = make(2)
    s = position(g, ["M5 V9", "D4"], {"N": "V6"}, stockpile="")
    s = play(g, s, "M5 on N")
    assert s.phase == PLAY and codes(s.hands[1]) == ["D4"]


def test_ability_collect_also_when_slipped_under_with_a_femme_fatale():
    """Ruling KP-9: an ability acts whenever its card is played from the hand, also when a
    Femme Fatale slips it under a stack."""
    g = make(2)
    # N: M4.  The black 5 (a Bookie) goes under the red 4.
    s = position(g, ["Fr B5 V9", "D3"], {"N": "M4"})
    s = play(g, s, "B5 under N with Fr")
    assert s.phase == COLLECT


def test_ability_rub_out_an_enforcer_discards_a_card_worth_6_or_less():
    """Rub Out: "When you play an Enforcer, you may discard one card worth 6 or less from your
    hand." """
    g = make(2)
    # N: B8.  The red 7 (an Enforcer) goes on it.
    s = position(g, ["M7 V6 Fr Hb B9 D12", "D4"], {"N": "B8"})
    s = play(g, s, "M7 on N")
    assert s.phase == RUB_OUT and g.current_player(s) == 0
    legal = {g.action_to_str(s, a) for a in g.legal_actions(s)}
    assert legal == {"discard V6", "discard Fr", "discard Hb", "keep"}  # not B9 or the kingpin
    s2 = play(g, s, "discard V6")
    assert codes(s2.hands[0]) == ["B9", "D12", "Fr", "Hb"]
    assert codes(s2.discards) == ["V6"]
    assert s2.phase == PLAY
    with pytest.raises(IllegalActionError, match="6 or less"):
        g.play(s, "discard B9")
    with pytest.raises(IllegalActionError):
        g.play(s, "end turn")  # the choice comes first


def test_ability_rub_out_is_optional():
    """Rub Out says "may": keeping every card is allowed."""
    g = make(2)
    s = position(g, ["M7 V6", "D4"], {"N": "B8"})
    s = play(g, s, "M7 on N", "keep")
    assert s.phase == PLAY and codes(s.hands[0]) == ["V6"]


def test_ability_rub_out_is_ignored_without_a_card_worth_6_or_less():
    """Rub Out cannot be resolved when no card in hand is worth 6 or less: it is ignored."""
    g = make(2)
    s = position(g, ["M7 V9 B12", "D4"], {"N": "B8"})
    s = play(g, s, "M7 on N")
    assert s.phase == PLAY


def test_ability_rub_out_of_the_last_card_ends_the_round():
    """Round end (a): discarding the last card with Rub Out leaves no card in hand."""
    g = make(2)
    s = position(g, ["M7 V2", "D4"], {"N": "B8"})
    s = play(g, s, "M7 on N", "discard V2")
    assert s.phase == DEAL and s.history == ((0, 4),)


def test_ability_ruling_kp9_a_last_bookie_still_makes_the_next_player_draw_then_the_round_ends():
    """Gameplay: "When you play a card, resolve its special ability (if any) immediately", and
    "If, after playing a card, you have none left in hand, the round ends." Ruling KP-9: the
    last card's ability resolves first (Collect: the next player draws), then the round ends
    and is scored with the drawn card in the next player's hand."""
    g = make(2)
    s = position(g, ["M5", "D4"], {"N": "V6"})
    s = play(g, s, "M5 on N")
    assert s.phase == COLLECT and g.current_player(s) == CHANCE and s.hands[0] == 0
    assert g.observe_action(s, A.card(k("B9")), None, 0) == (
        "player 1 draws a card (Collect); round 1 ends: player 0 0 points, player 1 13 points")
    s = deal(g, s, "B9")
    assert s.phase == DEAL and s.history == ((0, 4 + 9),)  # the drawn card counts at round end
    assert codes(s.last_hands[1]) == ["B9", "D4"]


def test_ability_ruling_kp9_a_last_bookie_slipped_under_with_a_femme_fatale_also_collects():
    """Ruling KP-9: a Bookie slipped under a stack as the last card (with a Femme Fatale) is
    played too, so its Collect resolves before the round ends."""
    g = make(3)
    s = position(g, ["Fb M5", "D4", "V2"], {"N": "B4"})
    s = play(g, s, "M5 under N with Fb")
    assert s.phase == COLLECT and s.hands[0] == 0
    s = deal(g, s, "D1")
    assert s.phase == DEAL and s.history == ((0, 4 + 1, 2),)


def test_ability_ruling_kp9_last_card_abilities_that_cannot_resolve_are_ignored():
    """"If the ability cannot be resolved, simply ignore it": a last Bookie with an empty
    stockpile, a last Enforcer (no card left to rub out) and a last Lookout (no draw left to
    save) end the round at once."""
    g = make(2)
    s = play(g, position(g, ["M5", "D4"], {"N": "V6"}, stockpile=""), "M5 on N")
    assert s.phase == DEAL and s.history == ((0, 4),)
    s = play(g, position(g, ["M7", "D4"], {"N": "V8"}), "M7 on N")
    assert s.phase == DEAL and s.history == ((0, 4),)
    s = play(g, position(g, ["M1", "D4"], {"N": "V2"}), "M1 on N")
    assert s.phase == DEAL and s.history == ((0, 4),)


def test_ability_ruling_kp9_a_last_bookie_in_the_fifth_round_collects_before_the_game_ends():
    """Ruling KP-9 at the game's end: the Collect card is drawn, then the fifth round is scored."""
    g = make(2)
    history = ((3, 3), (3, 3), (3, 3), (3, 3))
    s = position(g, ["M5", "D4"], {"N": "V6"}, round=4, history=history)
    s = play(g, s, "M5 on N")
    assert s.phase == COLLECT
    s = deal(g, s, "B2")
    assert g.is_terminal(s) and s.totals == (12, 12 + 4 + 2)
    assert g.returns(s) == (1.0, 0.0)
    g.validate_state(s)


def test_ability_alibi_a_lawyer_cancels_your_highest_other_card():
    """Alibi: "At round end, each Lawyer in your hand cancels the value of your highest-valued
    card that is not a Lawyer." """
    g = make(2)
    assert g.hand_score(from_kinds([k("M10"), k("V12"), k("B3")])) == 10 + 3  # kingpin cancelled
    assert g.hand_score(from_kinds([k("M10")])) == 10  # nothing to cancel
    # Two Lawyers cancel the two highest other cards, never each other.
    assert g.hand_score(from_kinds([k("M10"), k("B10"), k("V12"), k("D11"), k("B2")])) == 20 + 2
    # Applied in a real round end: player 1 holds a Lawyer, a kingpin and a 4.
    s = position(g, ["M3", "B10 V12 D4"], {"N": "B4"})
    s = play(g, s, "M3 on N")
    assert s.history == ((0, 14),)


def test_ability_lie_low_a_hand_of_only_hideouts_scores_0():
    """Lie Low: "At round end, if every card left in your hand is a Hideout, you score 0 for
    the round." (Retuned after the balance run, KP-D5.)"""
    g = make(2)
    assert g.hand_score(from_kinds([k("Hr")])) == 0
    assert g.hand_score(from_kinds([k("Hr"), k("Hb"), k("Hb")])) == 0
    assert g.hand_score(from_kinds([k("Hr"), k("V9")])) == 2 + 9  # not only Hideouts
    # With Alibi: the Lawyer cancels the highest other card, here a Hideout.
    assert g.hand_score(from_kinds([k("Hr"), k("M10")])) == 10
    # Applied in a real round end: player 1 holds two Hideouts.
    s = position(g, ["M3", "Hr Hb"], {"N": "B4"})
    s = play(g, s, "M3 on N")
    assert s.history == ((0, 0),)
    assert g.round_winners(s.history[-1]) == (0, 1)


def test_ability_option_off_plays_the_plain_game():
    """Option abilities=false: no card has an ability; cards score their values."""
    g = make(2, abilities=False)
    assert g.info.option_values["abilities"] is False
    s = position(g, ["M1 M5 M7 D6 V9", "D4"], {"N": "B2", "E": "V6", "S": "B8"})
    s = play(g, s, "M1 on N", "M5 on E", "M7 on S")
    assert s.phase == PLAY and not s.no_draw
    s = play(g, s, "end turn")
    assert s.phase == DRAW  # the Lookout did not stop the draw
    assert g.hand_score(from_kinds([k("M10"), k("V12")])) == 25
    assert g.hand_score(from_kinds([k("Hr"), k("V9")])) == 11
    assert g.hand_score(from_kinds([k("Hr"), k("Hb")])) == 4  # no Lie Low


def test_ability_texts_are_one_sentence_and_need_no_hidden_information():
    """Designed abilities (KP-D4): five, each one sentence; three act when played, two at
    scoring; each reads only its owner's hand and the stockpile's size."""
    assert len(ABILITIES) == 5
    whens = sorted(a["when"] for a in ABILITIES.values())
    assert whens == ["play", "play", "play", "scoring", "scoring"]
    for a in ABILITIES.values():
        text = a["text"]
        assert text.endswith(".") and text.count(". ") == 0
    g = make(2)
    s = position(g, ["M7 V6", "D4"], {"N": "B8"})
    s = play(g, s, "M7 on N")
    assert g.view(s, 1)["phase"] == "rub out"  # everyone sees that a choice is pending
    assert A.KEEP in g.legal_actions(s)


def test_ability_collect_card_is_seen_only_by_its_receiver():
    """The card Collect makes the next player draw is secret: the log names it only to them."""
    g = make(3)
    s = position(g, ["M5 V9", "D4", "B3"], {"N": "V6"})
    s = play(g, s, "M5 on N")
    a = g.parse_action(s, "card B8")
    assert g.observe_action(s, a, None, 1) == "you draw Brennan Fixer (black 8) (Collect)"
    for observer in (0, 2, None):
        assert g.observe_action(s, a, None, observer) == "player 1 draws a card (Collect)"


def test_log_names_the_ability_and_the_round_end_scores():
    """Issue 12, the terminal tells the story: a play whose ability acts names it, and the
    action that ends a round gives the round's scores ("1 point", not "1 points")."""
    g = make(2)
    s = position(g, ["M5 D4", "V1"], {"N": "V6"})
    assert g.observe_action(s, g.parse_action(s, "M5 on N"), 0, 1) == "player 0: M5 on N (Collect)"
    s = position(g, ["M3", "V1"], {"N": "B4"})
    line = g.observe_action(s, g.parse_action(s, "M3 on N"), 0, 1)
    assert line == "player 0: M3 on N; round 1 ends: player 0 0 points, player 1 1 point"
