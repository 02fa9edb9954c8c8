"""Kingpin components: the designed boards and tiles of kingpin.json checked against the
rulebook's Game Components and the research note (ruling KP-D1 ... KP-D6)."""

from __future__ import annotations

from kingmaker.games.kingpin.data import BOARDS, DATA, DIRS, TILES, Tables

NAMES = [
    "Marco M'Oniola", "Caesare Breve", "Rocco Cinghiale", "Tony Falconieri", "Luigi Derida",
    "Marina Fiori", "Monica", "Vasili Ivanov", "Grigori Skuvayev", "Michail Pushonov",
    "Boris Stiepanov", "Rafail Chomonov", "Tanya Danilevska", "Yamada Hanushi", "Takeshi Sato",
    "Yoichi Nakamura", "Keiko Tanaka", "Ryo", "Masaru",
]
BY_NAME = {t.name: t for t in TILES}


def test_game_components_24_tiles_8_per_mafia_in_three_colours():
    """Game Components: '24 gangster tiles' in 3 colours - 8 in each (blue Italian, green
    Yakuza, orange Russian)."""
    assert len(TILES) == 24
    for m in ("italian", "russian", "yakuza"):
        assert sum(t.mafia == m for t in TILES) == 8
    colours = {m["key"]: m["color"] for m in DATA["mafias"]}
    assert colours == {"italian": "blue", "yakuza": "green", "russian": "orange"}
    assert "designed" in DATA and "DESIGNED" in DATA["_about"]


def test_every_gangster_the_rulebook_names_is_a_tile_of_the_right_mafia():
    for name in NAMES:
        assert name in BY_NAME
    assert {BY_NAME[n].mafia for n in NAMES[:7]} == {"italian"}
    assert {BY_NAME[n].mafia for n in NAMES[7:13]} == {"russian"}
    assert {BY_NAME[n].mafia for n in NAMES[13:]} == {"yakuza"}
    assert len({t.short.lower() for t in TILES}) == 24  # the notation's names are unique


def test_fire_tokens_3_3_6_mean_one_sniper_each_and_two_for_the_yakuza():
    """Game Components: '12 fire tokens ... 3 for the Italian mafia, 3 for the Russian mob and 6
    for the Yakuza'; each sniper marks three squares."""
    snipers = {m: [t for t in TILES if t.mafia == m and t.sniper] for m in ("italian", "russian", "yakuza")}
    assert {m: sum(len(t.fire) for t in s) for m, s in snipers.items()} == {"italian": 3, "russian": 3, "yakuza": 6}
    assert {t.name for t in snipers["yakuza"]} == {"Ryo", "Masaru"}
    assert [t.name for t in snipers["italian"]] == ["Monica"]
    for t in TILES:
        assert len(set(t.fire)) == len(t.fire)
        if t.sniper:
            assert t.sides[0][0] == 0 and not any(s[1] for s in t.sides)  # snipers do not shoot or raid


def test_three_non_sniper_starting_tiles_per_mafia():
    """Gangster Tiles: '3 tiles from each mafia are the starting tiles' (KP-D4: none a sniper)."""
    for m in ("italian", "russian", "yakuza"):
        start = [t for t in TILES if t.mafia == m and t.start]
        assert len(start) == 3 and not any(t.sniper for t in start)


def test_values_the_worked_examples_state():
    """Toughness and icons the examples state (KP-D2); Marco's conflict resolved to 3 (KP-D5)."""
    tough = {"Vasili Ivanov": 3, "Grigori Skuvayev": 2, "Boris Stiepanov": 3, "Caesare Breve": 2,
             "Luigi Derida": 3, "Yamada Hanushi": 3, "Takeshi Sato": 2, "Yoichi Nakamura": 2,
             "Tony Falconieri": 3, "Marco M'Oniola": 3}
    assert {n: BY_NAME[n].toughness for n in tough} == tough
    assert max(s[0] for s in BY_NAME["Vasili Ivanov"].sides) == 3
    assert max(s[1] for s in BY_NAME["Tony Falconieri"].sides) == 2
    assert sorted(s[2] for s in BY_NAME["Caesare Breve"].sides if s[2]) == [1, 2]
    assert sum(s[2] for s in BY_NAME["Takeshi Sato"].sides) == 3
    assert sum(1 for s in BY_NAME["Marina Fiori"].sides if s[3]) == 2
    assert any(s[3] for s in BY_NAME["Tanya Danilevska"].sides)
    assert sorted(s[0] for s in BY_NAME["Boris Stiepanov"].sides if s[0]) == [1, 2]


def test_bottom_sides_carry_no_icon_and_styles_follow_the_designer_notes():
    """Gangster Tiles: the bottom holds name and toughness (KP-D3). Designer Notes: Russians
    the best direct firepower, Italians cars and support, Yakuza snipers and speed."""
    assert all(t.sides[2] == (0, 0, 0, 0) for t in TILES)

    def total(m, i):
        return sum(s[i] for t in TILES if t.mafia == m for s in t.sides)

    assert total("russian", 0) > max(total("italian", 0), total("yakuza", 0))
    assert total("italian", 3) > total("yakuza", 3)
    assert total("yakuza", 1) >= total("italian", 1) > total("russian", 1)


def test_boards_4_by_5_areas_at_opposite_corners_no_mans_land_and_exits():
    """The Board: 'Area of influence: 6 squares - 3 for each side - are placed on the opposite
    corners'; 'No man's land: the red squares'; winning past the enemy area 'through a square
    marked with a red triangle' (KP-D1)."""
    assert set(BOARDS) == {"A", "B"}
    for b in BOARDS.values():
        t = Tables(TILES, b)
        assert (b.columns, b.rows) == (4, 5)
        a0, a1 = b.areas
        assert len(a0) == len(a1) == 3 and not set(a0) & set(a1)
        assert 0 in a0 and 19 in a1  # a1 and d5: opposite corners
        assert all(sq // 4 <= 1 for sq in a0) and all(sq // 4 >= 3 for sq in a1)
        assert len(b.no_mans_land) >= 3 and all(1 <= sq // 4 <= 3 for sq in b.no_mans_land)
        assert not set(b.no_mans_land) & (set(a0) | set(a1))
        for p, enemy_area, edge in ((0, a1, "N"), (1, a0, "S")):
            assert b.exits[p]
            for sq, d in b.exits[p]:
                assert sq in enemy_area and DIRS[d] == edge and t.NB[sq][d] == -1
        # a half turn maps each side onto itself with the players swapped
        assert sorted(19 - x for x in a0) == sorted(a1)
        assert sorted(19 - x for x in b.no_mans_land) == sorted(b.no_mans_land)
        assert sorted(19 - x for x, _ in b.exits[0]) == sorted(x for x, _ in b.exits[1])
    A, B = BOARDS["A"], BOARDS["B"]
    assert A.areas != B.areas and A.no_mans_land != B.no_mans_land


def test_tables_turn_printed_sides_to_absolute_directions():
    """A tile facing east shows its top side east, its left side north (data.py's geometry)."""
    t = Tables(TILES, BOARDS["A"])
    grigori = t.BY_SHORT["grigori"]  # top PP, right V, left P
    code = grigori * 4 + 1
    assert t.AIM[code] == (1, 2, 0, 0)  # N (left) 1, E (top) 2
    assert t.VEST[code] == (0, 0, 1, 0)  # S (right)
    monica = t.BY_SHORT["monica"] * 4  # facing N on a1: (1,0) a2, (2,1) b3; (2,-1) is off the board
    assert [t.sq_names[x] for x in t.FIRE[0][monica]] == ["a2", "b3"]
