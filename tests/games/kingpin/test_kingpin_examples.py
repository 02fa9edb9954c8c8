"""Every worked example of the Kingpin rulebook, as a position and an attack.

Positions are drawn with row 5 at the top; ``Name F`` is a tile and the
direction its top side faces. Named gangsters are the designed tiles of
kingpin.json (their printed icons are in docs/rulings/kingpin.md); the
unnamed tiles of the generic examples are made here, shaped as the example
describes. Each test asserts who dies and where the attacker ends.
"""

from __future__ import annotations

import pytest

import kingmaker
from kingmaker.games.kingpin import Kingpin
from kingmaker.games.kingpin.data import tile

G = kingmaker.make("kingpin")


def dead(game, s) -> list[str]:
    return sorted(game.t.tiles[x].short for x in s.last_dead)


def shots(game, s, attacker: str, target: str, raid_from: str | None = None) -> dict:
    """Returns {target square: sorted [(shooter square, power after vests)]} of an attack."""
    board = list(s.board)
    a, t = game.square(attacker), game.square(target)
    raid_dir = -1
    if raid_from is not None:
        f = game.square(raid_from)
        raid_dir = game.t.NB[f].index(a)
        board[a], board[f] = board[f], -1
    own = game.owners(s.mafia)
    detail = game.fire_detail(board, own, a, t, raid_dir)
    n = game.t.sq_names
    return {n[v]: sorted((n[u], p) for u, p in sh) for v, sh in detail.items()}


# Generic tiles for the examples that name nobody: 'It2' is an Italian of toughness 2
# with two aims on its top side, and so on. Fillers stay in the decks so that a
# liquidation never ends these games by accident.
def generic(*tiles):
    fill = [tile(f"Filler{m}", m, 3) for m in ("italian", "russian")]
    return Kingpin.custom(tiles=[*tiles, *fill])


class TestShootout:
    def test_shootout_example_italian_liquidates_russian_and_enters_his_square(self):
        """Shootout, example: 'The Italian directs 2 aims towards the opponent. The attacked
        gangster's toughness = 2 ... the Italian has to move to the square occupied by the
        defeated gangster ... does not move the action token.'"""
        g = generic(tile("It Gunner", "italian", 2, top="PP"), tile("Ru Target", "russian", 2))
        #   b3  Ru v
        #   b2  It ^
        s = g.position({"b2": "It N", "b3": "Ru S"})
        s2 = g.play(s, "shoot b2 N")
        assert dead(g, s2) == ["Ru"]
        assert g.at(s2, "b3") == "It N" and g.at(s2, "b2") is None
        assert s2.track == s.track  # an attack costs no action
        assert g.current_player(s2) == 1

    def test_forbidden_shootout_without_an_aim_towards_the_enemy(self):
        """Shootout: 'Forbidden shootout: the tile initiating the attack does not have any aim
        directed towards the enemy, so the shootout cannot be started.'"""
        g = generic(tile("It Gunner", "italian", 2, top="PP"), tile("Ru Target", "russian", 1))
        s = g.position({"b2": "It E", "b3": "Ru S"})  # the Italian's aims point east
        with pytest.raises(kingmaker.IllegalActionError, match="no aim"):
            g.play(s, "shoot b2 N")

    def test_forbidden_attack_example_futile_shootout(self):
        """Raid section, 'Example of a forbidden attack: The Italian directs 2 aims at the
        opponent. The attacked gangster's toughness = 3. The shootout was futile - the action
        cannot be performed!'"""
        g = generic(tile("It Gunner", "italian", 2, top="PP"), tile("Ru Tough", "russian", 3))
        s = g.position({"b2": "It N", "b3": "Ru S"})
        assert g.codec.shoot(g.square("b2"), 0) not in g.legal_actions(s)
        with pytest.raises(kingmaker.IllegalActionError, match="would not liquidate"):
            g.play(s, "shoot b2 N")

    def test_example_both_gangsters_die_in_the_exchange(self):
        """Raid section, example: 'The Italian directs 2 aims towards the opponent ...
        toughness = 2 ... the Russian ... has 2 aims directed towards him. The Italian
        gangster's toughness = 2. As a result of this shootout both gangsters die.'"""
        g = generic(tile("It Gunner", "italian", 2, top="PP"), tile("Ru Gunner", "russian", 2, top="PP"))
        s = g.position({"b2": "It N", "b3": "Ru S"})
        s2 = g.play(s, "shoot b2 N")
        assert dead(g, s2) == ["It", "Ru"]
        assert g.at(s2, "b2") is None and g.at(s2, "b3") is None
        assert s2.track == s.track

    def test_a_gangster_cannot_attack_his_own_mafia(self):
        """Fire Exchange: 'Notice! A gangster cannot attack another gangster from the same mafia.'"""
        s = G.position({"b2": "Marco N", "b3": "Rocco S", "d5": "Vasili S"}, mafias=("italian", "russian"))
        with pytest.raises(kingmaker.IllegalActionError):
            G.play(s, "shoot b2 N")


class TestFireExchange:
    # The Italian Marco M'Oniola attacks Vasili Ivanov:
    #
    #        a            b            c
    #   4  Michail >    Tony ^
    #   3  Caesare >    Vasili <
    #   2  Grigori >    Marco ^
    #   1               Rocco ^
    POS = {"b2": "Marco N", "b3": "Vasili W", "a2": "Grigori E", "a3": "Caesare E",
           "b1": "Rocco N", "b4": "Tony N", "a4": "Michail E"}

    def test_fire_exchange_example_who_exchanges_fire(self):
        """Fire Exchange, example: 'Marco M'Oniola shoots at Vasili Ivanov. Vasili does not
        exchange fire with Marco ... Marco and Grigori ... Vasili and Caesare ... Rocco ...
        same mafia ... Caesare and Grigori do not exchange fire, because they both participate
        indirectly ... Tony ... does not have any aim directed towards Vasili ... Michail
        Pushonov does not exchange fire with Tony Falconieri'."""
        s = G.position(self.POS, mafias=("italian", "russian"))
        assert shots(G, s, "b2", "b3") == {
            "b3": [("a3", 1), ("b2", 2)],  # Vasili is hit by Marco (2) and Caesare (1)
            "b2": [("a2", 2)],             # Marco: only Grigori; Vasili aims elsewhere
            "a2": [("b2", 2)],             # Grigori: Marco
            "a3": [("b3", 2)],             # Caesare: Vasili's 3 aims less 1 vest
        }
        # Nobody shoots at Tony, Rocco or Michail; Grigori's aim at Caesare does not count.

    def test_fire_exchange_example_outcome_with_the_designed_tiles(self):
        """Fire Exchange: 'All fire exchanges take place simultaneously' and the attacker enters
        the attacked gangster's square without turning. The rulebook does not give this
        example's outcome; with the designed tiles Vasili (3 aims on him, toughness 3),
        Grigori and Caesare die and Marco survives (2 aims, toughness 3)."""
        s = G.position(self.POS, mafias=("italian", "russian"))
        s2 = G.play(s, "shoot b2 N")
        assert dead(G, s2) == ["Caesare", "Grigori", "Vasili"]
        assert G.at(s2, "b3") == "Marco N" and G.at(s2, "b2") is None
        assert G.at(s2, "b4") == "Tony N" and G.at(s2, "a4") == "Michail E" and G.at(s2, "b1") == "Rocco N"


class TestExamplesOfTheFireExchange:
    def test_yamada_and_vasili_kill_each_other_takeshi_stays(self):
        """Fire Exchange, example: 'Yamada has 2 aims ... toughness = 3. Takeshi Sato ...
        an additional aim ... The opponent dies ... the Russian gangster shoots at Yamada and
        kills him ... Both tiles are removed from the board. Takeshi Sato stays where he was.'"""
        #   4          Yamada v
        #   3          Vasili ^   Takeshi v
        s = G.position({"b3": "Vasili N", "b4": "Yamada S", "c3": "Takeshi S"},
                       mafias=("russian", "yakuza"), current=1)
        s2 = G.play(s, "shoot b4 S")
        assert dead(G, s2) == ["Vasili", "Yamada"]
        assert G.at(s2, "b3") is None and G.at(s2, "b4") is None
        assert G.at(s2, "c3") == "Takeshi S"
        assert s2.track == s.track

    def test_if_takeshi_initiated_he_would_move_to_vasilis_square(self):
        """'If the attack had been initiated by Takeshi Sato, the shootout would have taken
        place identically, but ... Takeshi would have moved to Vasili Ivanov's square.'"""
        s = G.position({"b3": "Vasili N", "b4": "Yamada S", "c3": "Takeshi S"},
                       mafias=("russian", "yakuza"), current=1)
        s2 = G.play(s, "shoot c3 W")
        assert dead(G, s2) == ["Vasili", "Yamada"]
        assert G.at(s2, "b3") == "Takeshi S" and G.at(s2, "c3") is None

    def test_vasili_attacks_marco_both_die_boris_and_tony_survive(self):
        """Example: 'Vasili ... attacking ... Marco ... 3 aims. Boris ... 1 aim ... 4 aims ...
        Marco dies ... Marco shoots at Vasili ... 2 aims. Tony ... 1 aim ... Vasili dies ...
        Vasili does not shoot at Tony ... Boris survives ... Michail Pushonov and Luigi Derida
        do not participate despite having aims directed towards their enemies.'"""
        #        a          b          c
        #   4                        Michail v
        #   3             Vasili v   Tony ^
        #   2  Boris v    Marco ^
        #   1  Luigi ^
        s = G.position({"b2": "Marco N", "b3": "Vasili S", "a2": "Boris S", "c3": "Tony N",
                        "c4": "Michail S", "a1": "Luigi N"}, mafias=("italian", "russian"), current=1)
        assert shots(G, s, "b3", "b2") == {
            "b2": [("a2", 1), ("b3", 3)],
            "b3": [("b2", 2), ("c3", 1)],
            "a2": [("b2", 2)],
        }
        s2 = G.play(s, "shoot b3 S")
        assert dead(G, s2) == ["Marco", "Vasili"]
        assert G.at(s2, "a2") == "Boris S" and G.at(s2, "c3") == "Tony N"
        assert G.at(s2, "b2") is None and G.at(s2, "b3") is None

    def test_marco_attacks_boris_both_die_luigi_and_vasili_survive(self):
        """Example: 'Marco ... attacking ... Boris ... 2 aims. Luigi ... 2 aims ... Boris dies.
        ... Boris shoots at Marco ... 1 aim. Vasili ... 3 aims ... Marco also dies. Luigi
        survives ... Vasili survives ... Tony Falconieri and Michail Pushonov do not
        participate despite having aims directed towards their enemies.'"""
        #        a          b          c           d
        #   4                        Michail >   Tony ^
        #   3  Luigi >    Boris <
        #   2  Vasili >   Marco ^
        s = G.position({"b2": "Marco N", "b3": "Boris W", "a3": "Luigi E", "a2": "Vasili E",
                        "d4": "Tony N", "c4": "Michail E"}, mafias=("italian", "russian"))
        assert shots(G, s, "b2", "b3") == {
            "b3": [("a3", 2), ("b2", 2)],
            "b2": [("a2", 3), ("b3", 1)],
            "a2": [("b2", 2)],
            "a3": [("b3", 2)],
        }
        s2 = G.play(s, "shoot b2 N")
        assert dead(G, s2) == ["Boris", "Marco"]
        assert G.at(s2, "a3") == "Luigi E" and G.at(s2, "a2") == "Vasili E"
        assert G.at(s2, "d4") == "Tony N" and G.at(s2, "c4") == "Michail E"

    def test_vasili_with_michail_liquidates_caesare_through_his_vests(self):
        """Example: 'Vasili ... 3 aims. Caesare's toughness = 2, but 2 vests reduce Vasili's
        power to 1 ... Michail Pushonov ... 2 aims ... the upper side of the Italian tile
        there is 1 vest ... with Vasili's 1 aim it is enough to liquidate Caesare.'"""
        #   4   Michail v
        #   3   Caesare ^   Vasili <
        pic = {"b3": "Caesare N", "c3": "Vasili W", "b4": "Michail S"}
        s = G.position(pic, mafias=("russian", "italian"))
        assert shots(G, s, "c3", "b3")["b3"] == [("b4", 1), ("c3", 1)]
        s2 = G.play(s, "shoot c3 W")
        assert dead(G, s2) == ["Caesare"]
        assert G.at(s2, "b3") == "Vasili W" and G.at(s2, "c3") is None
        assert G.at(s2, "b4") == "Michail S"

    def test_if_michail_initiated_the_caesare_shootout_it_looks_the_same(self):
        """'If the shootout had been initiated by Michail, the situation would have looked
        just the same.'"""
        s = G.position({"b3": "Caesare N", "c3": "Vasili W", "b4": "Michail S"}, mafias=("russian", "italian"))
        s2 = G.play(s, "shoot b4 S")
        assert dead(G, s2) == ["Caesare"]
        assert G.at(s2, "b3") == "Michail S" and G.at(s2, "c3") == "Vasili W"

    def test_without_michail_vasili_cannot_get_through_caesares_guard(self):
        """Guard, example: 'The Russian aims at the opponent with 3 aims. The Italian's
        toughness = 2, but 2 vests reduce the power of the attack to 1. The guard ...
        successfully prevents the Russian's attack.'"""
        s = G.position({"b3": "Caesare N", "c3": "Vasili W"}, mafias=("russian", "italian"))
        with pytest.raises(kingmaker.IllegalActionError, match="would not liquidate"):
            G.play(s, "shoot c3 W")


class TestGuard:
    def test_guard_example_two_vests_on_the_left_side_stop_three_aims(self):
        """Guard: 'The Russian aims at the opponent with 3 aims. The Italian's toughness = 2,
        but 2 vests reduce the power of the attack to 1. The guard placed on the Italian
        gangster's left side successfully prevents the Russian's attack.'"""
        g = generic(tile("Ru Gunner", "russian", 3, top="PPP"), tile("It Guarded", "italian", 2, left="VV"))
        s = g.position({"b2": "Ru E", "c2": "It N"}, mafias=("russian", "italian"))  # the left side faces west
        assert g.codec.shoot(g.square("b2"), 1) not in g.legal_actions(s)

    def test_guard_example_one_vest_is_not_enough(self):
        """Guard: 'The Russian aims at the opponent with 3 aims. The Italian's toughness = 2.
        1 vest reduces the power of the attack to 2, which is enough to liquidate the Italian.'"""
        g = generic(tile("Ru Gunner", "russian", 3, top="PPP"), tile("It Guarded", "italian", 2, left="V"))
        s = g.position({"b2": "Ru E", "c2": "It N"}, mafias=("russian", "italian"))
        s2 = g.play(s, "shoot b2 E")
        assert dead(g, s2) == ["It"] and g.at(s2, "c2") == "Ru E"

    def test_vests_guard_only_their_own_side(self):
        """Guard: 'A guard (vest icon) reduces the power of the attack ... on the side where the
        guard is.' The same Italian turned so the vests face away is liquidated."""
        g = generic(tile("Ru Gunner", "russian", 3, top="PPP"), tile("It Guarded", "italian", 3, left="VV"))
        s = g.position({"b2": "Ru E", "c2": "It S"}, mafias=("russian", "italian"))  # vests face east
        assert dead(g, g.play(s, "shoot b2 E")) == ["It"]


class TestSupport:
    def test_marco_cannot_shoot_when_marina_is_not_turned_correctly(self):
        """Support, example: 'Marco M'Oniola cannot start a shootout. Marco does not get
        support from Marina, as she is not turned correctly.'"""
        #   3  .         Boris ^
        #   2  Marina    Marco ^
        s = G.position({"b2": "Marco N", "b3": "Boris N", "a2": "Marina N"}, mafias=("italian", "russian"))
        with pytest.raises(kingmaker.IllegalActionError, match="would not liquidate"):
            G.play(s, "shoot b2 N")

    @pytest.mark.parametrize("facing", ["E", "S"])
    def test_marina_turned_towards_marco_gives_him_one_more_aim(self, facing):
        """Support: 'If a gangster is adjacent to their comrade who has a support icon (pen)
        directed towards them, they get +1 aim on every side where they have at least 1 aim.'
        Marina has pens on her top and left sides: facing E (top) or S (left) both point one at Marco."""
        s = G.position({"b2": "Marco N", "b3": "Boris N", "a2": f"Marina {facing}"}, mafias=("italian", "russian"))
        s2 = G.play(s, "shoot b2 N")
        assert dead(G, s2) == ["Boris"] and G.at(s2, "b3") == "Marco N"

    def test_grigori_and_michail_supported_by_tanya_kill_takeshi(self):
        """Support, example: 'Grigori ... 2 aims. Michail ... 2 aims, additionally supported by
        1 support icon from Tanya Danilevska, who does not have to participate ... The power of
        the attack on Takeshi is 5 aims, but it is reduced by 3 vests ... equal to his
        toughness = 2, so Takeshi dies ... Takeshi shoots at Grigori ... 2 aims ... Grigori also
        dies. Takeshi also shoots at Michail, but 1 aim is not enough.'"""
        #        a           b
        #   4  Tanya >
        #   3  Michail >   Takeshi v
        #   2              Grigori ^
        pic = {"b3": "Takeshi S", "b2": "Grigori N", "a3": "Michail E", "a4": "Tanya E"}
        s = G.position(pic, mafias=("russian", "yakuza"))
        assert shots(G, s, "b2", "b3") == {
            "b3": [("a3", 2), ("b2", 0)],  # (2 - 2 vests) + (2 + 1 support - 1 vest)
            "b2": [("b3", 2)],
            "a3": [("b3", 1)],
        }
        s2 = G.play(s, "shoot b2 N")
        assert dead(G, s2) == ["Grigori", "Takeshi"]
        assert G.at(s2, "a3") == "Michail E" and G.at(s2, "a4") == "Tanya E"

    def test_without_tanya_the_takeshi_shootout_cannot_take_place(self):
        """The supporting tile need not participate, but without her pen the power is 1 < 2."""
        s = G.position({"b3": "Takeshi S", "b2": "Grigori N", "a3": "Michail E"}, mafias=("russian", "yakuza"))
        with pytest.raises(kingmaker.IllegalActionError):
            G.play(s, "shoot b2 N")

    def test_tony_raid_on_vasili_needs_marinas_support(self):
        """Support, example: 'Tony Falconieri can initiate a raid by attacking the Russian
        gangster. Supported by Marina Fiori, he has 1 additional car icon, which results in 3
        aims. The attacked Vasili Ivanov's toughness = 3 ... Vasili Ivanov would be liquidated.'
        'Support may also apply to raids, but only when the square which the attacking gangster
        moves through is supported.'"""
        #   3   Vasili ^
        #   2   .          Marina ^   (her left pen points at b2)
        #   1   Tony ^
        s = G.position({"b1": "Tony N", "b3": "Vasili N", "c2": "Marina N"}, mafias=("italian", "russian"))
        s2 = G.play(s, "raid b1 N")
        assert dead(G, s2) == ["Vasili"]
        assert G.at(s2, "b3") == "Tony N" and G.at(s2, "b1") is None and G.at(s2, "b2") is None
        assert s2.track == s.track
        for pic in ({"b1": "Tony N", "b3": "Vasili N"}, {"b1": "Tony N", "b3": "Vasili N", "c2": "Marina S"}):
            s = G.position(pic, mafias=("italian", "russian"))
            with pytest.raises(kingmaker.IllegalActionError, match="would not liquidate"):
                G.play(s, "raid b1 N")


class TestRaid:
    def test_correctly_initiated_raid_moves_one_square_then_enters_the_target_square(self):
        """Raid: 'The enemy tile has to be separated from the tile with the car icon with one
        free square ... in a straight line. The player moves the attacking gangster tile by one
        square without turning, then the attacks are resolved just as during a shootout.'"""
        g = generic(tile("It Driver", "italian", 2, top="CC"), tile("Ru Target", "russian", 2))
        s = g.position({"b1": "It N", "b3": "Ru E"})
        s2 = g.play(s, "raid b1 N")
        assert dead(g, s2) == ["Ru"] and g.at(s2, "b3") == "It N"

    @pytest.mark.parametrize("pic", [
        {"b1": "It N", "b2": "Blocker N", "b3": "Ru E"},  # another gangster between them
        {"b1": "It N", "c3": "Ru E"},                     # no straight line
        {"b1": "It N", "b4": "Ru E"},                     # farther away than one square
    ])
    def test_forbidden_raids(self, pic):
        """Raid: 'Forbidden raid - there is another gangster between ...; - there is no straight
        line between the attacker and the attacked; - the attacked gangster is farther away than
        1 square.' 'A gangster with a car icon cannot double their move!'"""
        g = generic(tile("It Driver", "italian", 2, top="CC"), tile("Ru Target", "russian", 1),
                    tile("Blocker", "italian", 1))
        s = g.position(pic)
        assert not any(g.codec.RAID0 <= a < g.codec.PLAY0 for a in g.legal_actions(s))
        with pytest.raises(kingmaker.IllegalActionError, match="raid needs"):
            g.play(s, "raid b1 N")

    def test_cars_count_only_for_the_raider_and_only_on_the_raid_side(self):
        """Raid: 'All other sides of this tile count as in a normal shootout and pistol icons are
        used. Car icons are used ... only if a tile is initiating the raid. If the attacked tile
        has car icons, they do not count, but pistol icons do.'"""
        g = generic(tile("Driver", "italian", 2, top="CC", left="P"),
                    tile("Target", "russian", 2, top="CC"), tile("Side", "russian", 1))
        #   3  .        Target v  (its cars point at the raider: they do not fire)
        #   2  Side ^   .          <- the raider stops here; its left pistol hits Side
        #   1  .        Driver ^
        s = g.position({"b1": "Driver N", "b3": "Target S", "a2": "Side N"})
        assert shots(g, s, "b2", "b3", raid_from="b1") == {"b3": [("b2", 2)], "a2": [("b2", 1)]}
        s2 = g.play(s, "raid b1 N")
        assert dead(g, s2) == ["Side", "Target"] and g.at(s2, "b3") == "Driver N"

    def test_raider_side_pistols_do_not_add_to_cars(self):
        """Raid: 'the car icon should be counted on an appropriate side instead of the pistol icon'."""
        g = generic(tile("It Driver", "italian", 2, top="CPP"), tile("Ru Target", "russian", 2))
        s = g.position({"b1": "It N", "b3": "Ru S"})
        assert shots(g, s, "b2", "b3", raid_from="b1")["b3"] == [("b2", 1)]
        with pytest.raises(kingmaker.IllegalActionError):
            g.play(s, "raid b1 N")
        assert dead(g, g.play(g.position({"b2": "It N", "b3": "Ru S"}), "shoot b2 N")) == ["Ru"]


class TestSnipers:
    def test_two_yakuza_snipers_make_a_raid_through_two_vests_possible(self):
        """Sniper, example: 'The Japanese gangster can initiate a raid ... 2 aims. The Italian's
        toughness = 2, but 2 vests reduce the power of the Yakuza attack to 0. However, the
        attack is still possible, as two Yakuza snipers fire at the square where the Italian
        gangster stands, reducing his toughness ... by 2.'"""
        #        b          c          d
        #   5  Keiko v   Masaru v
        #   4  .
        #   3  Caesare <            Ryo <      (Caesare's right side, 2 vests, faces north)
        pic = {"b5": "Keiko S", "b3": "Caesare W", "c5": "Masaru S", "d3": "Ryo W"}
        s = G.position(pic, mafias=("italian", "yakuza"), current=1)
        assert shots(G, s, "b4", "b3", raid_from="b5") == {"b3": [("b4", 0)]}
        s2 = G.play(s, "raid b5 S")
        assert dead(G, s2) == ["Caesare"] and G.at(s2, "b3") == "Keiko S"
        one = dict(pic)
        del one["d3"]
        with pytest.raises(kingmaker.IllegalActionError):
            G.play(G.position(one, mafias=("italian", "yakuza"), current=1), "raid b5 S")

    def test_rafail_with_the_russian_sniper_liquidates_caesare(self):
        """Sniper, example: 'Rafail aims at the opponent with 2 aims. Caesare's toughness = 2,
        but 1 vest reduces the power of Rafail's attack to 1. However, the attack is still
        possible, as the Russian sniper reduces the Italian's toughness by 1.'"""
        #   4  Rafail v
        #   3  Caesare ^
        #   2  .
        #   1  Stepan ^   (fires at a2, c2 and b3)
        s = G.position({"b4": "Rafail S", "b3": "Caesare N", "b1": "Stepan N"}, mafias=("russian", "italian"))
        s2 = G.play(s, "shoot b4 S")
        assert dead(G, s2) == ["Caesare"] and G.at(s2, "b3") == "Rafail S"
        for stepan in (None, "Stepan E"):
            pic = {"b4": "Rafail S", "b3": "Caesare N"}
            if stepan:
                pic["b1"] = stepan
            with pytest.raises(kingmaker.IllegalActionError):
                G.play(G.position(pic, mafias=("russian", "italian")), "shoot b4 S")

    def test_snipers_cannot_initiate_attacks(self):
        """Sniper: 'A sniper cannot initiate an attack.' 'Even if two enemy snipers fire at each
        other, nothing happens.' (A made-up sniper with pistols still cannot start a shootout.)"""
        g = generic(tile("It Sniper", "italian", 1, top="PPP", fire=[(1, 0), (2, 0), (3, 0)]),
                    tile("Ru Sniper", "russian", 1, fire=[(1, 0), (2, 0), (3, 0)]))
        s = g.position({"b2": "It N", "b3": "Ru S"})
        assert not any(g.codec.SHOOT0 <= a < g.codec.PLAY0 for a in g.legal_actions(s))
        with pytest.raises(kingmaker.IllegalActionError, match="sniper cannot initiate"):
            g.play(s, "shoot b2 N")

    def test_a_sniper_cannot_be_supported(self):
        """Sniper: 'A sniper cannot be supported with a support icon (pen).' (A made-up sniper
        with a pistol, so that support would show.)"""
        g = generic(tile("Gunner", "italian", 3, top="P"), tile("Sniper", "italian", 2, top="P", fire=[(3, 0)]),
                    tile("Pen", "italian", 2, top="S", left="S"), tile("Target", "russian", 3))
        #   3  Sniper >   Target v
        #   2  Pen        Gunner ^
        own = g.owners((0, 1))
        s = g.position({"b2": "Gunner N", "a3": "Sniper E", "b3": "Target S", "a2": "Pen N"})
        assert g.support(s.board, own, g.square("a3")) == 0  # Pen's top points at the sniper
        s = g.position({"b2": "Gunner N", "a3": "Sniper E", "b3": "Target S", "a2": "Pen E"})
        assert g.support(s.board, own, g.square("b2")) == 1  # top pen at the gunner
        assert g.support(s.board, own, g.square("a3")) == 0  # left pen at the sniper: no effect
        assert shots(g, s, "b2", "b3")["b3"] == [("a3", 1), ("b2", 2)]
        assert dead(g, g.play(s, "shoot b2 N")) == ["Target"]

    def test_sniper_fire_ignores_vests_and_counts_only_during_an_attack(self):
        """Sniper: 'A vest (guard) does not protect from the sniper's fire.' 'Snipers reduce the
        enemy's toughness only during an attack.' Ruling KP-R5: only a gangster someone fires
        at can die; one merely under a sniper's fire survives the exchange."""
        g = generic(tile("Gunner", "italian", 2, top="P"), tile("Sniper", "italian", 2, fire=[(2, 0), (1, 1)]),
                    tile("Target", "russian", 1, bottom="VVV"), tile("Bystander", "russian", 1))
        #   3  Target ^ (3 vests face the gunner)
        #   2  Gunner ^   Bystander ^   (both Target and Bystander are under the sniper's fire)
        #   1  Sniper ^
        s = g.position({"b2": "Gunner N", "b3": "Target N", "b1": "Sniper N", "c2": "Bystander N"})
        s1 = g.play(s, "turn b2 E")  # no attack: nobody dies, whatever the snipers aim at
        assert g.at(s1, "b3") == "Target N" and g.at(s1, "c2") == "Bystander N"
        assert shots(g, s, "b2", "b3") == {"b3": [("b2", 0)]}
        s2 = g.play(s, "shoot b2 N")  # power 1 - 3 vests = 0 >= toughness 1 - 1 sniper
        assert dead(g, s2) == ["Target"]
        assert g.at(s2, "c2") == "Bystander N" and g.at(s2, "b3") == "Gunner N"


class TestAdvancedAttack:
    #        a            b           c           d
    #   5               Ryo v
    #   4  Keiko ^                  Masaru v
    #   3               Yamada ^    Caesare <
    #   2  Yoichi >     .           Marina ^
    #   1  Monica ^     Tony ^
    #
    # Monica fires at a2 and b3; Ryo at b4, b3, b2; Masaru at d2, c2, b2.
    PIC = {"b1": "Tony N", "c2": "Marina N", "c3": "Caesare W", "a1": "Monica N",
           "b3": "Yamada N", "a2": "Yoichi E", "a4": "Keiko N", "b5": "Ryo S", "c4": "Masaru S"}

    def test_example_of_an_advanced_attack_fire_exchange(self):
        """Example of an Advanced Attack: 'Tony aims at Yamada with 3 aims: his 2 aims and 1 aim
        from Marina's support. Ceasare ... 2 aims: his 1 aim and 1 aim from Marina's support.
        The power of the attack on Yamada is 5, but it is reduced by 1 vest ... Yamada shoots at
        Ceasare, but he has too few aims to force his way through Ceasare's guard ... Tony aims
        at Yoichi with 2 aims ... reduced by 1 vest ... Yoichi shoots 1 aim at Tony.'"""
        s = G.position(self.PIC, mafias=("italian", "yakuza"))
        assert shots(G, s, "b2", "b3", raid_from="b1") == {
            "b3": [("b2", 3), ("c3", 1)],  # 3 + (2 - 1 vest) = 4 on Yamada
            "c3": [("b3", 0)],             # Yamada's 1 aim against Caesare's vest
            "a2": [("b2", 1)],             # Tony's 1 aim + 1 support - 1 vest
            "b2": [("a2", 1)],             # Yoichi on Tony
        }
        own = G.owners(s.mafia)
        moved = list(s.board)
        moved[G.square("b2")], moved[G.square("b1")] = moved[G.square("b1")], -1
        # Toughness reductions by snipers: Yamada 3-1, Yoichi 2-1, Tony 3-2.
        assert [G.sniper_fire(moved, own, G.square(x)) for x in ("b3", "a2", "b2", "c3")] == [1, 1, 2, 0]

    def test_example_of_an_advanced_attack_outcome(self):
        """'Yamada Hanushi is liquidated ... Yoichi Nakamura is liquidated ... Tony Falconieri is
        liquidated. Keiko Tanaka does not participate in the shootout.'"""
        s = G.position(self.PIC, mafias=("italian", "yakuza"))
        s2 = G.play(s, "raid b1 N")
        assert dead(G, s2) == ["Tony", "Yamada", "Yoichi"]
        for sq in ("b1", "b2", "b3", "a2"):
            assert G.at(s2, sq) is None
        assert G.at(s2, "c3") == "Caesare W" and G.at(s2, "a4") == "Keiko N"
        assert s2.track == s.track


class TestEndingTheGame:
    def test_example_russian_leaves_the_board_past_the_enemy_area(self):
        """Ending the Game, example: 'The Russian gangster goes beyond the opposite area of
        influence. The player controlling the Russian mafia wins.' (Board A: the Yakuza area
        is b5-d5, each with a red triangle pointing off the north edge.)"""
        s = G.position({"c5": "Vasili N", "a5": "Yamada S"}, mafias=("russian", "yakuza"))
        s2 = G.play(s, "exit c5")
        assert G.is_terminal(s2) and G.returns(s2) == (1.0, 0.0) and s2.reason == "exit"
        assert G.at(s2, "c5") is None

    def test_example_three_russians_on_no_mans_land_win(self):
        """Ending the Game, example: '3 Russian gangsters stand on no man's land. There are no
        Yakuza gangsters there. The player controlling the Russian mafia wins.'"""
        s = G.position({"a3": "Vasili N", "b3": "Grigori N", "c2": "Michail N", "d5": "Yamada S"},
                       mafias=("russian", "yakuza"))
        s2 = G.play(s, "move c2 N")
        assert G.is_terminal(s2) and s2.winner == 0 and s2.reason == "no-mans-land"

    def test_no_mans_land_needs_the_enemy_to_have_no_tile_there(self):
        """Winning Conditions: 'take control of no man's land - place there 3 of their tiles
        when the opponent does not have any tiles there'."""
        s = G.position({"a3": "Vasili N", "b3": "Grigori N", "c2": "Michail N", "d3": "Yamada S"},
                       mafias=("russian", "yakuza"))
        s2 = G.play(s, "move c2 N")
        assert not G.is_terminal(s2)
