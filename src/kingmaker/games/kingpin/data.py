"""Kingpin components, read once from ``kingpin.json``; boards and tiles as frozen records.

The engine is data-driven: ``Tables(tiles, board)`` precomputes everything the
rules need from ANY list of ``Tile`` records and any ``Board``, so tests may
define their own tiles (``tile(...)``) and positions.

Geometry (board side A shown; columns a-d, rows 1-5, player 0 at the bottom)::

        a    b    c    d
    5   .   [1]  [1]  [1]      [1] player 1's area of influence (red triangles: exits
    4   .    .    .    .           for player 0's tiles, leaving northwards)
    3   ~    ~    ~    ~       ~   No Man's Land (red squares)
    2   .    .    .    .
    1  [0]  [0]  [0]   .       [0] player 0's area (exits for player 1, southwards)

Squares are numbered ``(row - 1) * columns + column`` (a1 = 0, d5 = 19).
Directions are absolute: N (0, towards row 5), E (1), S (2), W (3). A tile's
*facing* is the direction its top side points to; its printed sides are
top, right, bottom, left, so the printed side towards absolute direction
``d`` is ``(d - facing) % 4``.

Each printed side carries icons written as letters: ``P`` pistol (an aim),
``C`` car, ``V`` vest (guard), ``S`` support pen. A sniper has a fire
pattern: three ``(forward, right)`` offsets relative to its facing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DATA = json.loads(Path(__file__).with_name("kingpin.json").read_text())

DIRS = ("N", "E", "S", "W")
DIR_BY_NAME = {d: i for i, d in enumerate(DIRS)}
SIDES = ("top", "right", "bottom", "left")
ICONS = {"P": "pistols", "C": "cars", "V": "vests", "S": "pens"}
ACTION_TRACK: int = DATA["action_track"]
LONG_NIGHT_DAWN: int = DATA["long_night_dawn"]
MAFIA_KEYS: tuple[str, ...] = tuple(m["key"] for m in DATA["mafias"])
MAFIA_INFO: dict[str, dict] = {m["key"]: m for m in DATA["mafias"]}


@dataclass(frozen=True, slots=True)
class Tile:
    """One gangster tile: name, mafia key, toughness, icons per printed side, sniper pattern.

    ``sides`` holds four ``(pistols, cars, vests, pens)`` tuples in the order
    top, right, bottom, left. ``fire`` is empty for a non-sniper.
    """

    name: str
    short: str
    mafia: str
    toughness: int
    sides: tuple[tuple[int, int, int, int], ...]
    fire: tuple[tuple[int, int], ...] = ()
    start: bool = False

    @property
    def sniper(self) -> bool:
        return bool(self.fire)

    def icons(self, side: int) -> str:
        """Returns the letters of a printed side (0 top, 1 right, 2 bottom, 3 left), e.g. 'PPV'."""
        p, c, v, s = self.sides[side]
        return "P" * p + "C" * c + "V" * v + "S" * s


def parse_icons(text: str) -> tuple[int, int, int, int]:
    """Returns (pistols, cars, vests, pens) from letters such as 'PPV' (case-insensitive)."""
    t = text.upper().replace(" ", "")
    bad = set(t) - set(ICONS)
    if bad:
        raise ValueError(f"unknown icon letters {sorted(bad)} in {text!r}; use P, C, V, S")
    return (t.count("P"), t.count("C"), t.count("V"), t.count("S"))


def tile(
    name: str,
    mafia: str,
    toughness: int,
    top: str = "",
    right: str = "",
    bottom: str = "",
    left: str = "",
    fire: tuple | list = (),
    short: str | None = None,
    start: bool = False,
) -> Tile:
    """Returns a Tile from readable arguments: ``tile("Vasili Ivanov", "russian", 3, top="PPP")``."""
    if toughness < 0:
        raise ValueError("toughness must be >= 0")
    sides = tuple(parse_icons(x) for x in (top, right, bottom, left))
    return Tile(
        name=name,
        short=short or name.split()[0],
        mafia=mafia,
        toughness=toughness,
        sides=sides,
        fire=tuple((int(f), int(r)) for f, r in fire),
        start=start,
    )


def tile_from_dict(d: dict) -> Tile:
    return tile(
        d["name"], d["mafia"], d["toughness"], d.get("top", ""), d.get("right", ""),
        d.get("bottom", ""), d.get("left", ""), d.get("sniper", ()), d.get("short"),
        bool(d.get("start", False)),
    )


TILES: tuple[Tile, ...] = tuple(tile_from_dict(d) for d in DATA["tiles"])


@dataclass(frozen=True, slots=True)
class Board:
    """One board side: size, each player's area of influence, No Man's Land and exits.

    ``exits[p]`` lists ``(square, direction)``: a tile of player ``p`` on that
    square may leave the board in that direction (past the enemy's area).
    """

    name: str
    columns: int
    rows: int
    areas: tuple[tuple[int, ...], tuple[int, ...]]
    no_mans_land: tuple[int, ...]
    exits: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    about: str = ""

    @property
    def squares(self) -> int:
        return self.columns * self.rows

    def square_name(self, sq: int) -> str:
        return f"{'abcdefghij'[sq % self.columns]}{sq // self.columns + 1}"

    def square(self, name: str) -> int:
        name = name.strip().lower()
        if len(name) < 2 or not name[1:].isdigit():
            raise ValueError(f"not a square: {name!r}")
        c = ord(name[0]) - ord("a")
        r = int(name[1:]) - 1
        if not (0 <= c < self.columns and 0 <= r < self.rows):
            raise ValueError(f"not a square of this board: {name!r}")
        return r * self.columns + c


def board_from_dict(name: str, d: dict) -> Board:
    cols, rows = d["columns"], d["rows"]
    tmp = Board(name, cols, rows, ((), ()), (), ((), ()))
    areas = tuple(tuple(sorted(tmp.square(x) for x in a)) for a in d["areas"])
    nml = tuple(sorted(tmp.square(x) for x in d["no_mans_land"]))
    exits = tuple(tuple(sorted((tmp.square(s), DIR_BY_NAME[dr]) for s, dr in e)) for e in d["exits"])
    return Board(name, cols, rows, areas, nml, exits, d.get("about", ""))  # type: ignore[arg-type]


BOARDS: dict[str, Board] = {k: board_from_dict(k, v) for k, v in DATA["boards"].items()}


class Tables:
    """Everything the rules look up, precomputed from a tile list and a board.

    A board entry is ``code = tile * 4 + facing`` (-1 for an empty square).
    ``AIM[code][d]``, ``CAR``, ``VEST``, ``PEN``: icons on the side towards
    absolute direction ``d``. ``NB[sq][d]``: neighbour square or -1.
    ``FIRE[sq][code]``: squares a sniper fires at (empty tuple for others).
    """

    def __init__(self, tiles: tuple[Tile, ...] | list[Tile], board: Board) -> None:
        self.tiles = tuple(tiles)
        self.board = board
        mafias = []
        for t in self.tiles:
            if t.mafia not in mafias:
                mafias.append(t.mafia)
        # Known mafias first in their data order, then any others a test defines.
        self.mafias: tuple[str, ...] = tuple(m for m in MAFIA_KEYS if m in mafias) + tuple(
            m for m in mafias if m not in MAFIA_KEYS
        )
        shorts = [t.short.lower() for t in self.tiles]
        if len(set(shorts)) != len(shorts):
            raise ValueError("tile short names must be unique")
        self.n_tiles = len(self.tiles)
        self.n_sq = board.squares
        self.MAFIA = tuple(self.mafias.index(t.mafia) for t in self.tiles)
        self.TOUGH = tuple(t.toughness for t in self.tiles)
        self.SNIPER = tuple(t.sniper for t in self.tiles)
        self.BY_SHORT = {t.short.lower(): i for i, t in enumerate(self.tiles)}
        self.BY_NAME = {t.name.lower(): i for i, t in enumerate(self.tiles)}
        self.BY_MAFIA = tuple(
            tuple(i for i, t in enumerate(self.tiles) if self.MAFIA[i] == m) for m in range(len(self.mafias))
        )
        self.STARTERS = tuple(
            tuple(i for i in self.BY_MAFIA[m] if self.tiles[i].start) for m in range(len(self.mafias))
        )
        aim, car, vest, pen = [], [], [], []
        for t in self.tiles:
            for f in range(4):
                aim.append(tuple(t.sides[(d - f) % 4][0] for d in range(4)))
                car.append(tuple(t.sides[(d - f) % 4][1] for d in range(4)))
                vest.append(tuple(t.sides[(d - f) % 4][2] for d in range(4)))
                pen.append(tuple(t.sides[(d - f) % 4][3] for d in range(4)))
        self.AIM = tuple(aim)
        self.CAR = tuple(car)
        self.VEST = tuple(vest)
        self.PEN = tuple(pen)
        cols, rows = board.columns, board.rows
        nb = []
        for sq in range(self.n_sq):
            c, r = sq % cols, sq // cols
            nb.append((
                sq + cols if r + 1 < rows else -1,
                sq + 1 if c + 1 < cols else -1,
                sq - cols if r > 0 else -1,
                sq - 1 if c > 0 else -1,
            ))
        self.NB = tuple(nb)
        # Squares two steps away in a straight line, with the square between.
        self.NB2 = tuple(
            tuple(self.NB[self.NB[sq][d]][d] if self.NB[sq][d] >= 0 else -1 for d in range(4))
            for sq in range(self.n_sq)
        )
        fire = []
        for sq in range(self.n_sq):
            row = []
            c0, r0 = sq % cols, sq // cols
            for code in range(4 * self.n_tiles):
                t = self.tiles[code >> 2]
                f = code & 3
                out = []
                for fw, rt in t.fire:
                    # forward along the facing, right = facing + 90 degrees
                    dc = _DC[f] * fw + _DC[(f + 1) % 4] * rt
                    dr = _DR[f] * fw + _DR[(f + 1) % 4] * rt
                    c, r = c0 + dc, r0 + dr
                    if 0 <= c < cols and 0 <= r < rows:
                        out.append(r * cols + c)
                row.append(tuple(sorted(set(out))))
            fire.append(tuple(row))
        self.FIRE = tuple(fire)
        self.AREA = tuple(frozenset(a) for a in board.areas)
        self.AREA_T = board.areas
        self.NML = frozenset(board.no_mans_land)
        self.IN_NML = tuple(sq in self.NML for sq in range(self.n_sq))
        # EXIT[p][sq] = direction a tile of p leaves the board from sq, or -1.
        ex = []
        for p in range(2):
            e = [-1] * self.n_sq
            for sq, d in board.exits[p]:
                e[sq] = d
            ex.append(tuple(e))
        self.EXIT = tuple(ex)
        self.EXIT_SQ = tuple(tuple(sq for sq, _ in board.exits[p]) for p in range(2))
        self.sq_names = tuple(board.square_name(i) for i in range(self.n_sq))
        self.SQ_BY_NAME = {n: i for i, n in enumerate(self.sq_names)}


_DC = (0, 1, 0, -1)  # column change per direction N, E, S, W
_DR = (1, 0, -1, 0)  # row change per direction
OPP = (2, 3, 0, 1)
