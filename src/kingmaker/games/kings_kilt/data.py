"""King's Kilt components, read once from ``kings_kilt.json``; the pyramid's geometry.

Cards are stored as a *kind*: 0-7 a clan member of clan k, 8-15 a leader of
clan k - 8. Only the clan matters to the rules; the leader flag is for
display and for the order of the draw pile.

The pyramid's 21 cells are numbered from the top, row by row::

    row 0 (King)                    0
    row 1 (Guardians)             1   2
    row 2 (Noblemen)            3   4   5
    row 3                     6   7   8   9
    row 4                  10  11  12  13  14
    row 5 (base)         15  16  17  18  19  20

Cell (r, c) rests on (r+1, c) and (r+1, c+1). A card ascends *left* to
(r-1, c-1) when (r, c-1) holds a card, or *right* to (r-1, c) when (r, c+1)
does. Its six neighbours are left, right and the four diagonals.
"""

from __future__ import annotations

import json
from pathlib import Path

_DATA = json.loads((Path(__file__).with_name("kings_kilt.json")).read_text())

CLANS: tuple[str, ...] = tuple(_DATA["clans"])
NUM_CLANS = len(CLANS)
MEMBERS_PER_CLAN: int = _DATA["members_per_clan"]
LEADERS_PER_CLAN: int = _DATA["leaders_per_clan"]
NUM_KINDS = 2 * NUM_CLANS
FAMILY_CARDS: int = _DATA["family_cards"]
INFLUENCE_CARDS: dict[int, int] = {int(k): v for k, v in _DATA["influence_cards"].items()}
KING_POINTS: int = _DATA["scores"]["king"]
GUARDIAN_POINTS: int = _DATA["scores"]["guardian"]
NOBLEMAN_POINTS: int = _DATA["scores"]["nobleman"]
ROWS: int = _DATA["pyramid_rows"]
CELLS = ROWS * (ROWS + 1) // 2
TOTAL_CARDS = NUM_CLANS * (MEMBERS_PER_CLAN + LEADERS_PER_CLAN)
DATA = _DATA


def clan_of(kind: int) -> int:
    return kind & 7


def is_leader(kind: int) -> bool:
    return kind >= NUM_CLANS


def card_name(kind: int) -> str:
    return CLANS[kind & 7] + (" leader" if kind >= NUM_CLANS else "")


def cell(r: int, c: int) -> int:
    return r * (r + 1) // 2 + c


ROW: tuple[int, ...] = tuple(r for r in range(ROWS) for _ in range(r + 1))
COL: tuple[int, ...] = tuple(c for r in range(ROWS) for c in range(r + 1))
BOTTOM: tuple[int, ...] = tuple(cell(ROWS - 1, c) for c in range(ROWS))
GUARDIAN_CELLS = (cell(1, 0), cell(1, 1))
NOBLE_CELLS = (cell(2, 0), cell(2, 1), cell(2, 2))
KING_CELL = 0


def _ascend(i: int, d: int) -> tuple[int, int]:
    r, c = ROW[i], COL[i]
    if r == 0:
        return (-1, -1)
    if d == 0:  # left
        return (cell(r - 1, c - 1), cell(r, c - 1)) if c >= 1 else (-1, -1)
    return (cell(r - 1, c), cell(r, c + 1)) if c <= r - 1 else (-1, -1)


# ASCEND[i*2+d] = (destination, supporting neighbour) or (-1, -1).
ASCEND: tuple[tuple[int, int], ...] = tuple(_ascend(i, d) for i in range(CELLS) for d in (0, 1))
# BELOW[i] = the two cells a card in i rests on, () on the base row.
BELOW: tuple[tuple[int, ...], ...] = tuple(
    (cell(ROW[i] + 1, COL[i]), cell(ROW[i] + 1, COL[i] + 1)) if ROW[i] < ROWS - 1 else () for i in range(CELLS)
)


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = ROW[i], COL[i]
    out = []
    for rr, cc in ((r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c), (r + 1, c + 1)):
        if 0 <= rr < ROWS and 0 <= cc <= rr:
            out.append(cell(rr, cc))
    return tuple(sorted(out))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(CELLS))
NEIGHBOUR_MASK: tuple[int, ...] = tuple(sum(1 << j for j in NEIGHBOURS[i]) for i in range(CELLS))
HEIGHT: tuple[int, ...] = tuple(ROWS - 1 - ROW[i] for i in range(CELLS))
ROW_NAMES = ("King", "Guardians", "Noblemen", "Commoners", "Commoners", "Commoners")


def cell_name(i: int) -> str:
    """Returns a cell's notation: row letter from the base (a) to the top (f), column from 1: 'a1'..'f1'."""
    return f"{'abcdef'[ROWS - 1 - ROW[i]]}{COL[i] + 1}"


CELL_BY_NAME = {cell_name(i): i for i in range(CELLS)}
