"""Kingpin rules by rulebook section, and the rulings of docs/rulings/kingpin.md (KP-R1 ...)."""

from __future__ import annotations

import json
import random

import pytest

import kingmaker
from kingmaker.games.kingpin import Kingpin
from kingmaker.games.kingpin.data import tile
from kingmaker.games.kingpin.render import render

G = kingmaker.make("kingpin")
G0 = kingmaker.make("kingpin", first_player="0")  # seat 0 starts (option for tests, ruling KP-R1)
RY = ("russian", "yakuza")


def legal_texts(game, s):
    return {game.action_to_str(s, a) for a in game.legal_actions(s)}


class TestSetup:
    def test_game_setup_starting_player_chooses_then_opponent(self):
        """Game Setup: 'The starting player must choose the gang they would like to control,
        then the opponent does so.' (KP-R1, with the option first_player=0.)"""
        s = G0.new_initial_state()
        assert G0.current_player(s) == 0
        assert legal_texts(G0, s) == {"choose Italians", "choose Russians", "choose Yakuza"}
        s = G0.play(s, "choose Russians")
        assert G0.current_player(s) == 1
        assert legal_texts(G0, s) == {"choose Italians", "choose Yakuza"}
        with pytest.raises(kingmaker.IllegalActionError, match="already chosen"):
            G0.play(s, "choose Russians")
        s = G0.play(s, "choose Yakuza")
        assert G0.current_player(s) == 0 and s.mafia == (1, 2)

    def test_game_setup_in_any_random_way_choose_the_starting_player(self):
        """Game Setup: 'In any random way choose the player, who will start the game.' (KP-R1:
        a chance node, one half each; the starting player then chooses a mafia first and makes
        the first move.)"""
        s = G.new_initial_state()
        assert G.current_player(s) == kingmaker.CHANCE
        assert G.chance_outcomes(s) == [(0, 0.5), (1, 0.5)]
        assert [G.action_to_str(s, a) for a, _ in G.chance_outcomes(s)] == ["player 0 starts", "player 1 starts"]
        assert G.observe_action(s, 1, None, 0) == "chance: player 1 starts (chosen at random)"
        s = G.play(s, "player 1 starts")
        assert G.current_player(s) == 1
        assert legal_texts(G, s) == {"choose Italians", "choose Russians", "choose Yakuza"}
        s = G.play(s, "choose Yakuza")
        assert G.current_player(s) == 0 and s.mafia == (-1, 2)
        assert legal_texts(G, s) == {"choose Italians", "choose Russians"}
        with pytest.raises(kingmaker.IllegalActionError, match="already chosen"):
            G.play(s, "choose Yakuza")
        s = G.play(s, "choose Italians")
        assert s.mafia == (0, 2) and G.current_player(s) == 1  # the starting player moves first
        assert any(x.startswith("play Yamada") for x in legal_texts(G, s))

    def test_game_setup_random_start_with_fixed_mafias_and_the_fixed_seat_option(self):
        """KP-R1: with fixed mafias the chance node still chooses who starts; the option
        first_player fixes the seat (accepted as text or as an int)."""
        g = kingmaker.make("kingpin", mafias="russian-yakuza")
        s = g.new_initial_state()
        assert g.current_player(s) == kingmaker.CHANCE and [len(h) for h in s.hand] == [3, 3]
        assert g.current_player(g.apply(s, 1)) == 1 and g.apply(s, 1).mafia == s.mafia
        for value in ("1", 1):
            g1 = kingmaker.make("kingpin", mafias="russian-yakuza", first_player=value)
            assert g1.current_player(g1.new_initial_state()) == 1
        with pytest.raises(kingmaker.GameError, match="random, 0, 1"):
            kingmaker.make("kingpin", first_player="2")
        # Random starts come out both ways, and the record replays the same game.
        starts = {G.apply(G.new_initial_state(), kingmaker.sample_chance(G.chance_outcomes(G.new_initial_state()),
                                                                       random.Random(i))).current for i in range(20)}
        assert starts == {0, 1}

    def test_game_setup_starting_tiles_face_up_rest_face_down_tokens_on_25(self):
        """Game Setup: 'Each player separates the 3 starting tiles and places them face up ...
        shuffles the rest ... face down.' 'Action tokens ... on the number 25.'"""
        g = kingmaker.make("kingpin", mafias="italian-yakuza")
        s = g.new_initial_state()
        names = [[g.t.tiles[x].short for x in h] for h in s.hand]
        assert names == [["Marco", "Caesare", "Rocco"], ["Yamada", "Takeshi", "Yoichi"]]
        assert [len(d) for d in s.deck] == [5, 5] and s.track == (25, 25)
        v = g.view(s, None)
        assert v["players_info"][1]["face_down"]["count"] == 5
        assert v["players_info"][0]["actions_left"] == 25

    def test_goodfellas_every_gangster_face_up_from_the_first_action(self):
        """Optional Rules, Goodfellas: 'put all their gangsters face up ... They can play any of
        the available gangsters from the first action on.'"""
        g = kingmaker.make("kingpin", mafias="russian-italian", goodfellas=True, first_player="0")
        s = g.new_initial_state()
        assert [len(h) for h in s.hand] == [8, 8] and s.deck == ((), ())
        assert "play Stepan a1 N" in legal_texts(g, s)
        s2 = g.play(s, "play Stepan a1 N")
        assert g.current_player(s2) == 1  # no deck: no draw

    def test_max_game_length_bounds(self):
        # The start, two mafia choices, draws, 2 x 25 movement actions (2 x 100 at night), attacks.
        assert G.info.max_game_length == 3 + 16 + 16 + 50
        assert kingmaker.make("kingpin", long_night=True).info.max_game_length == 3 + 32 + 200


class TestPlayingANewTile:
    def test_play_on_a_free_square_of_ones_area_in_any_rotation(self):
        """Playing a New Tile: 'The tile is placed on a free square in their area of influence.
        The tile can be turned in any direction.'"""
        g = kingmaker.make("kingpin", mafias="russian-yakuza", first_player="0")
        s = g.new_initial_state()
        plays = {x for x in legal_texts(g, s) if x.startswith("play")}
        assert plays == {f"play {n} {sq} {f}" for n in ("Vasili", "Grigori", "Michail")
                         for sq in ("a1", "b1", "c1") for f in "NESW"}
        with pytest.raises(kingmaker.IllegalActionError, match="own area"):
            g.play(s, "play Vasili d1 N")
        with pytest.raises(kingmaker.IllegalActionError, match="not one of your face-up"):
            g.play(s, "play Boris a1 N")

    def test_after_playing_draw_one_tile_face_up_while_the_deck_lasts(self):
        """Playing a New Tile: 'After playing a tile, the player - until they have tiles in their
        deck - draws one tile and places it face up.' The draw is a chance node (KP-R2)."""
        g = kingmaker.make("kingpin", mafias="russian-yakuza", first_player="0")
        s = g.play(g.new_initial_state(), "play Vasili b1 N")
        assert g.current_player(s) == kingmaker.CHANCE
        outcomes = g.chance_outcomes(s)
        assert sorted(g.action_to_str(s, a) for a, _ in outcomes) == [
            "draw Boris", "draw Dmitri", "draw Rafail", "draw Stepan", "draw Tanya"]
        assert all(abs(p - 0.2) < 1e-12 for _, p in outcomes)
        s = g.play(s, "draw Stepan")
        assert [g.t.tiles[x].short for x in s.hand[0]] == ["Grigori", "Michail", "Stepan"]
        assert g.current_player(s) == 1 and len(s.deck[0]) == 4
        # With an empty deck nothing is drawn.
        s = g.position({"a1": "Vasili N", "d5": "Yamada S"}, mafias=RY, hands=(("Grigori",), ()), decks=((), ()))
        s2 = g.play(s, "play Grigori b1 E")
        assert g.current_player(s2) == 1 and s2.hand[0] == ()

    def test_sniper_fire_squares_are_marked_when_played(self):
        """Sniper: 'The player who puts a sniper into play should immediately mark the squares
        under the sniper's fire ... If the sniper is moved ... the tokens should be moved.'"""
        s = G.position({"b1": "Stepan N", "d5": "Yamada S"}, mafias=RY)
        fired = {q["name"]: q["under_fire_by"] for q in G.view(s, 0)["board"]["squares"] if q["under_fire_by"]}
        assert fired == {"a2": ["Stepan"], "c2": ["Stepan"], "b3": ["Stepan"]}
        s2 = G.play(s, "move b1 E")
        fired = {q["name"] for q in G.view(s2, 0)["board"]["squares"] if q["under_fire_by"]}
        assert fired == {"b2", "d2", "c3"}


class TestMovement:
    POS = {"b2": "Vasili N", "c2": "Grigori N", "b4": "Yamada S"}

    def test_turning_a_tile_by_90_180_or_270_degrees(self):
        """Turning a Tile: 'turn one of their tokens 90, 180 or 270 degrees'. 'Forbidden
        different-angle turn' (KP-R11: a turn must change the facing)."""
        s = G.position(self.POS, mafias=RY)
        turns = {x for x in legal_texts(G, s) if x.startswith("turn b2")}
        assert turns == {"turn b2 E", "turn b2 S", "turn b2 W"}
        with pytest.raises(kingmaker.IllegalActionError, match="90, 180 or 270"):
            G.play(s, "turn b2 N")
        assert G.at(G.play(s, "turn b2 W"), "b2") == "Vasili W"

    def test_moving_a_tile_with_and_without_a_turn(self):
        """Moving a Tile: 'a move with a turn and a move without a turn are both allowed.'"""
        s = G.position(self.POS, mafias=RY)
        s1 = G.play(s, "move b2 W")
        assert G.at(s1, "a2") == "Vasili N" and G.at(s1, "b2") is None
        s2 = G.play(s, "move b2 S turn E")
        assert G.at(s2, "b1") == "Vasili E"
        assert s1.track == (24, 25)

    def test_forbidden_moves_occupied_diagonal_two_squares(self):
        """Moving a Tile: 'Forbidden: a move to an occupied square, a diagonal move, and a move by
        two squares.' 'two tiles can never occupy the same square.'"""
        s = G.position(self.POS, mafias=RY)
        with pytest.raises(kingmaker.IllegalActionError, match="same square"):
            G.play(s, "move b2 E")
        for text in ("move b2 NE", "move b2 N N", "move b2 b4"):
            with pytest.raises(kingmaker.InvalidActionError):
                G.play(s, text)
        # Every legal move lands on an orthogonally adjacent square.
        t = G.t
        for a in G.legal_actions(s):
            if G.codec.MOVE0 <= a < G.codec.CASTLE0:
                sq, d = divmod((a - G.codec.MOVE0) // 5, 4)
                assert t.NB[sq][d] >= 0 and s.board[t.NB[sq][d]] < 0

    def test_castling_with_and_without_a_turn(self):
        """Castling: 'switch places of two of their tiles which are adjacent ... may turn one of
        the tiles involved'. Illustrated: with and without a turn are allowed."""
        s = G.position(self.POS, mafias=RY)
        s1 = G.play(s, "castle b2 c2")
        assert G.at(s1, "b2") == "Grigori N" and G.at(s1, "c2") == "Vasili N"
        s2 = G.play(s, "castle c2 b2 turn c2 E")  # either order of squares
        assert G.at(s2, "b2") == "Grigori N" and G.at(s2, "c2") == "Vasili E"
        assert s2.track == (24, 25)

    def test_forbidden_castling_not_adjacent_or_different_mafias(self):
        """Castling: 'Forbidden: castling of tiles which are not adjacent, and castling of
        gangsters belonging to different players.'"""
        s = G.position({"b2": "Vasili N", "d2": "Grigori N", "b3": "Yamada S"}, mafias=RY)
        with pytest.raises(kingmaker.InvalidActionError):
            G.play(s, "castle b2 d2")
        with pytest.raises(kingmaker.IllegalActionError, match="other mafia"):
            G.play(s, "castle b2 b3")

    def test_an_attack_does_not_move_the_action_token_a_movement_does(self):
        """Attack's impact on the number of actions: 'After performing an attack, the action token
        is not moved.' Movement: the token moves 'one number down'."""
        s = G.position({"b2": "Vasili N", "b3": "Yoichi S"}, mafias=RY, track=(10, 12))
        assert G.play(s, "shoot b2 N").track == (10, 12)
        assert G.play(s, "turn b2 E").track == (9, 12)


class TestEndingTheGame:
    def test_liquidating_every_enemy_gangster_wins(self):
        """Winning Conditions: 'liquidate all enemy gangsters.' (KP-R6: all of them, the face-up
        and face-down ones too.)"""
        s = G.position({"b2": "Vasili N", "b3": "Yoichi S"}, mafias=RY, hands=((), ()), decks=((), ()))
        s2 = G.play(s, "shoot b2 N")
        assert G.is_terminal(s2) and s2.winner == 0 and s2.reason == "liquidation"
        s = G.position({"b2": "Vasili N", "b3": "Yoichi S"}, mafias=RY, hands=((), ("Keiko",)), decks=((), ()))
        assert not G.is_terminal(G.play(s, "shoot b2 N"))

    def test_no_draws_when_both_lose_their_last_gangster_the_attacker_wins(self):
        """Defeat: 'There are no draws in Kingpin' (KP-R6)."""
        g = Kingpin.custom(tiles=[tile("Gun", "russian", 2, top="PP"), tile("Blade", "yakuza", 2, top="PP")])
        s = g.position({"b2": "Gun N", "b3": "Blade S"}, current=1)  # each mafia's only gangster
        s2 = g.play(s, "shoot b3 S")
        assert sorted(g.t.tiles[x].short for x in s2.last_dead) == ["Blade", "Gun"]
        assert g.is_terminal(s2) and s2.winner == 1 and g.returns(s2) == (0.0, 1.0)

    def test_running_out_of_actions_loses(self):
        """Defeat: 'The player who runs out of actions - goes below 1 on the action track -
        loses' (KP-R8)."""
        s = G.position({"b2": "Vasili N", "d5": "Yamada S"}, mafias=RY, track=(1, 1))
        s2 = G.play(s, "turn b2 E")
        assert G.is_terminal(s2) and s2.winner == 1 and s2.reason == "out-of-actions"
        assert s2.track == (0, 1)

    def test_a_last_action_that_wins_wins(self):
        """KP-R8: the win is checked before the empty track."""
        s = G.position({"c5": "Vasili N", "a5": "Yamada S"}, mafias=RY, track=(1, 1))
        s2 = G.play(s, "exit c5")
        assert s2.winner == 0 and s2.reason == "exit"

    def test_leaving_the_board_only_past_the_enemy_area_through_a_red_triangle(self):
        """Winning Conditions: 'move any one of their tiles beyond the opposite area of influence
        through a square marked with a red triangle' (KP-R12)."""
        s = G.position({"a5": "Vasili N", "d1": "Grigori S", "c1": "Michail S", "d5": "Yamada S"}, mafias=RY)
        texts = legal_texts(G, s)
        assert not any(x.startswith("exit") for x in texts)  # a5 has no triangle; own area has none for p0
        with pytest.raises(kingmaker.IllegalActionError, match="red-triangle"):
            G.play(s, "exit a5")
        s = G.position({"a1": "Yamada S", "c5": "Vasili N"}, mafias=RY, current=1)
        assert "exit a1" in legal_texts(G, s)
        s2 = G.play(s, "exit a1")
        assert s2.winner == 1 and s2.reason == "exit"
        b = kingmaker.make("kingpin", board="B")
        s = b.position({"d4": "Vasili N", "a5": "Yamada S"}, mafias=RY)
        assert not any(x.startswith("exit") for x in legal_texts(b, s))  # d4: area but no triangle

    def test_no_mans_land_control_made_by_the_enemys_own_move(self):
        """KP-R10: the enemy leaving No Man's Land hands it over."""
        s = G.position({"a3": "Vasili N", "b3": "Grigori N", "c3": "Michail N", "d3": "Yamada S"},
                       mafias=RY, current=1)
        s2 = G.play(s, "move d3 N")
        assert s2.winner == 0 and s2.reason == "no-mans-land"

    def test_a_player_who_cannot_act_loses(self):
        """KP-R7: no tile on the board and no free square of one's area: no action is possible."""
        #   5  .   Vasili  Grigori  .          Yakuza area b5, c5, d5; Takeshi waits face up
        #   4  .   .       .        Michail
        s = G.position({"b5": "Vasili N", "c5": "Grigori N", "d4": "Michail N"},
                       mafias=RY, hands=((), ("Takeshi",)), decks=((), ()))
        s1 = G.play(s, "move d4 W")
        assert not G.is_terminal(s1)  # d5 is still free for Takeshi
        s2 = G.play(s, "move d4 N")
        assert G.is_terminal(s2) and s2.winner == 0 and s2.reason == "no-action"


class TestLongNight:
    def test_a_very_long_night_has_no_action_track_but_dawn_ends_it(self):
        """Optional Rules, A Very Long Night: 'The players do not use the action track.' KP-R9:
        dawn after 100 movement actions each; more gangsters alive wins."""
        g = kingmaker.make("kingpin", long_night=True, mafias="russian-yakuza", first_player="0")
        s = g.new_initial_state()
        assert s.track == (100, 100)
        v = g.view(s, 0)
        assert v["action_track"] is False and v["players_info"][0]["actions_before_dawn"] == 100
        s = g.position({"b2": "Vasili N", "d5": "Yamada S"}, mafias=RY, track=(1, 1), hands=((), ()),
                       decks=((), ()))
        s2 = g.play(s, "turn b2 E")
        assert s2.reason == "dawn" and s2.winner == 1  # 1 gangster each, none on NML: not the one who ran out
        s = g.position({"b2": "Vasili N", "a2": "Grigori N", "d5": "Yamada S"}, mafias=RY, track=(1, 1),
                       hands=((), ()), decks=((), ()))
        assert g.play(s, "turn b2 E").winner == 0  # two gangsters against one


class TestNotationErrorsAndViews:
    def test_notation_round_trips_for_every_legal_action(self):
        s = G.position(TestMovement.POS, mafias=RY)
        for a in G.legal_actions(s):
            assert G.parse_action(s, G.action_to_str(s, a)) == a
        assert G.parse_action(s, "play Vasili c1 N") == G.codec.play(G.t.BY_SHORT["vasili"], G.square("c1"), 0)
        assert G.parse_action(s, "PLAY vasili ivanov C1 n") == G.parse_action(s, "play Vasili c1 N")
        assert G.parse_action(s, "raid b2 N") == G.codec.raid(G.square("b2"), 0)

    def test_bad_input_raises_typed_errors_and_leaves_the_state_unchanged(self):
        s = G.position(TestMovement.POS, mafias=RY)
        before = json.dumps(G.to_json(s))
        with pytest.raises(kingmaker.InvalidActionError):
            G.play(s, "fly b2 to the moon")
        with pytest.raises(kingmaker.IllegalActionError, match="belongs to your opponent"):
            G.play(s, "turn b4 N")
        with pytest.raises(kingmaker.NotYourTurnError):
            G.play(s, "turn b2 E", player=1)
        assert json.dumps(G.to_json(s)) == before

    def test_from_json_rejects_inconsistent_states(self):
        s = G.position(TestMovement.POS, mafias=RY)
        data = G.to_json(s)
        assert G.from_json(json.loads(json.dumps(data))) == s
        bad = json.loads(json.dumps(data))
        bad["state"]["hand"][0] = [G.t.BY_SHORT["vasili"]]  # Vasili is also on the board
        with pytest.raises(kingmaker.GameError):
            G.from_json(bad)
        bad = json.loads(json.dumps(data))
        bad["state"]["track"] = [30, 25]
        with pytest.raises(kingmaker.GameError):
            G.from_json(bad)

    def test_view_is_rich_and_render_shows_icons_by_side(self):
        s = G.position({"b2": "Takeshi E", "c2": "Ryo N", "b4": "Vasili S"}, mafias=("yakuza", "russian"))
        v = G.view(s, None)
        sq = {q["name"]: q for q in v["board"]["squares"]}
        tk = sq["b2"]["tile"]
        assert tk["name"] == "Takeshi Sato" and tk["mafia"] == "yakuza" and tk["color"] == "green"
        assert tk["facing"] == "E" and tk["sides"]["E"]["icons"] == "PPVV" and tk["sides"]["S"]["icons"] == "PV"
        assert tk["player"] == 0 and tk["toughness"] == 2 and sq["c2"]["tile"]["sniper"]
        assert sq["a3"]["kind"] == "no_mans_land" and sq["a1"]["kind"] == "area" and sq["a1"]["area_of"] == 0
        assert sq["c5"]["exit_for"] == 0 and sq["c5"]["exit_dir"] == "N"
        text = render(v)
        assert "Takeshi" in text and "PPVV" in text and "Vasili" in text and "~ NML ~" in text

    def test_log_lines_name_the_liquidated(self):
        s = G.position({"b2": "Vasili N", "b3": "Yoichi S"}, mafias=RY)
        line = G.observe_action(s, G.parse_action(s, "shoot b2 N"), 0, 1)
        assert line == "player 0: shoot b2 N (liquidated: Yoichi)"


class TestDataDriven:
    def test_the_engine_plays_with_any_tile_set(self):
        """The rules read tiles as data: a two-mafia set of made-up tiles plays a full random game."""
        tiles = [tile(f"A{i}", "italian", 1 + i % 3, top="P" * (i % 3 + 1), right="C", left="S" if i % 2 else "V",
                      start=i < 2) for i in range(5)]
        tiles += [tile(f"B{i}", "russian", 2, top="PP", left="V", fire=[(1, 0), (2, 0), (2, 1)] if i == 4 else (),
                       start=i < 2) for i in range(5)]
        g = Kingpin.custom(tiles=tiles, board="B", mafias="italian-russian")
        rng = random.Random(4)
        s = g.new_initial_state()
        assert [len(h) for h in s.hand] == [2, 2]
        while not g.is_terminal(s):
            if g.current_player(s) == kingmaker.CHANCE:
                s = g.apply(s, rng.choice(g.chance_outcomes(s))[0])
            else:
                s = g.apply(s, rng.choice(g.legal_actions(s)))
        assert s.winner in (0, 1)


def test_a_gangster_who_left_the_board_is_not_counted_as_liquidated():
    """The view names the tile that left the board; it is not among the liquidated."""
    s = G.position({"c5": "Vasili N", "a5": "Yamada S"}, mafias=RY)
    s2 = G.play(s, "exit c5")
    v = G.view(s2, 1)
    assert v["exited"]["name"] == "Vasili Ivanov" and v["winner"] == 0
    assert "Vasili" not in v["players_info"][0]["liquidated"]
    assert G.from_json(json.loads(json.dumps(G.to_json(s2)))) == s2


def test_game_overview_players_alternate_one_action_each():
    """Game Overview: 'In every turn the players may take one action each. There are two kinds of
    actions: movement and attack.' An attack also hands the turn over (KP-R3)."""
    s = G.position({"b2": "Vasili N", "b3": "Yoichi S", "d5": "Yamada S"}, mafias=RY)
    s1 = G.play(s, "turn b2 E")
    assert G.current_player(s1) == 1
    s2 = G.play(s, "shoot b2 N")
    assert G.current_player(s2) == 1
    assert G.current_player(G.play(s2, "turn d5 W")) == 0


def test_nothing_is_hidden_both_seats_see_the_same_view():
    """KP-R2: the face-down tiles are a known set whose order is not stored, so the game has
    perfect information (with chance): every seat's view is the same and sampling changes nothing."""
    assert G.info.perfect_information and G.info.has_chance
    g = kingmaker.make("kingpin", mafias="yakuza-italian", first_player="0")
    s = g.new_initial_state()
    views = [g.view(s, p) for p in (0, 1, None)]
    for v in views:
        v.pop("you")
    assert views[0] == views[1] == views[2]
    assert views[0]["players_info"][0]["face_down"]["tiles"] == ["Keiko", "Ryo", "Masaru", "Kenji", "Sora"]
    assert g.sample_hidden(s, 0, random.Random(1)) == s


def test_checked_games_driven_by_hypothesis():
    """The conformance checks on games whose choices hypothesis draws (failures shrink)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from kingmaker.conformance import HypothesisChooser, play_checked_game

    game = kingmaker.make("kingpin", board="B")

    @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        play_checked_game(game, HypothesisChooser(data), hidden_every=5, illegal_every=5)

    run()


class TestOutcome:
    def test_every_win_reason_has_a_sentence_naming_the_winner(self):
        """Winning the Game: leave the board past the enemy's area, three on No Man's Land,
        liquidate every enemy; KP-R7 no action; KP-R8 out of actions. outcome() names each."""
        s = G.play(G.position({"c5": "Vasili N", "a5": "Yamada S"}, mafias=RY), "exit c5")
        assert G.outcome(s) == {"winners": [0], "reason": "exit", "text": (
            "player 0 wins: Vasili left the board past player 1's area of influence "
            "(the enemy kingpin is liquidated)")}
        s = G.position({"a3": "Vasili N", "b3": "Grigori N", "c2": "Michail N", "d5": "Yamada S"}, mafias=RY)
        s = G.play(s, "move c2 N")
        assert G.outcome(s) == {"winners": [0], "reason": "no_mans_land",
                                "text": "player 0 wins: 3 gangsters on No Man's Land and none of player 1's"}
        s = G.position({"b2": "Vasili N", "b3": "Yoichi S"}, mafias=RY, hands=((), ()), decks=((), ()))
        s = G.play(s, "shoot b2 N")
        assert G.outcome(s)["reason"] == "liquidation"
        assert G.outcome(s)["text"] == "player 0 wins: every gangster of player 1 is liquidated"
        s = G.play(G.position({"b2": "Vasili N", "d5": "Yamada S"}, mafias=RY, track=(1, 1)), "turn b2 E")
        assert G.outcome(s) == {"winners": [1], "reason": "out_of_actions", "text": (
            "player 1 wins: player 0 ran out of actions (the action token went below 1)")}
        assert G.figures(s) == {"gangsters_alive": (8, 8), "no_mans_land": (0, 0), "actions_left": (0, 1)}
        assert G.view(s, None)["outcome"] == G.outcome(s)["text"]

    def test_dawn_names_the_tie_break_that_decided(self):
        """KP-R9: at dawn more gangsters alive wins, then more on No Man's Land, then the player
        who did not take the last action; outcome() says which ("1 gangster", singular)."""
        g = kingmaker.make("kingpin", long_night=True)
        none = dict(hands=((), ()), decks=((), ()), track=(1, 1), mafias=RY)
        s = g.play(g.position({"b2": "Vasili N", "a2": "Grigori N", "d5": "Yamada S"}, **none), "turn b2 E")
        assert g.outcome(s) == {"winners": [0], "reason": "dawn_alive",
                                "text": "player 0 wins at dawn: 2 gangsters alive against 1"}
        s = g.play(g.position({"b2": "Vasili N", "a3": "Yamada S"}, **none), "turn b2 E")
        assert g.outcome(s) == {"winners": [1], "reason": "dawn_no_mans_land", "text": (
            "player 1 wins at dawn: 1 gangster alive each, broken by No Man's Land: 1 tile there against 0")}
        s = g.play(g.position({"b2": "Vasili N", "d5": "Yamada S"}, **none), "turn b2 E")
        assert g.outcome(s) == {"winners": [1], "reason": "dawn_last_action", "text": (
            "player 1 wins at dawn: 1 gangster alive and 0 tiles on No Man's Land each, broken by the "
            "last action of the night: player 0 took it")}
        line = g.observe_action(g.position({"b2": "Vasili N", "d5": "Yamada S"}, **none), g.parse_action(s, "turn b2 E"), 0, 1)
        assert line == "player 0: turn b2 E; " + g.outcome(s)["text"]

    def test_long_night_help_says_when_dawn_comes_and_how_it_is_scored(self):
        """Optional Rules, A Very Long Night; KP-R9: the option's help gives dawn and its scoring."""
        doc = next(o.doc for o in G.options if o.name == "long_night")
        assert "dawn after 100 movement actions each" in doc
        assert "more gangsters alive wins, then the one with more tiles on No Man's Land" in doc
