"""King's Kilt actions as ints, and their notation.

    0..41     ascend: cell * 2 + direction (0 left, 1 right)   "ascend b3 left"
    42..209   betray: 42 + clan * 21 + target cell            "betray MacLeod e2"
    210..230  fill the vacuum with the card from a cell       "fill from a4"
    231       pass                                            "pass"
    232..239  turn a family card face up: 232 + clan          "reveal Stewart"
    240..255  chance: the next card is kind k: 240 + k        "card Bruce leader"
"""

from __future__ import annotations

from .data import CELL_BY_NAME, CELLS, CLANS, NUM_KINDS, card_name, cell_name

ASCEND0 = 0
BETRAY0 = 42
FILL0 = BETRAY0 + 8 * CELLS
PASS = FILL0 + CELLS
REVEAL0 = PASS + 1
CARD0 = REVEAL0 + 8
NUM_ACTIONS = CARD0 + NUM_KINDS

_CLAN_BY_NAME = {c.lower(): i for i, c in enumerate(CLANS)}
_DIRS = ("left", "right")


def ascend(cell: int, direction: int) -> int:
    return cell * 2 + direction


def betray(clan: int, target: int) -> int:
    return BETRAY0 + clan * CELLS + target


def fill(cell: int) -> int:
    return FILL0 + cell


def reveal(clan: int) -> int:
    return REVEAL0 + clan


def card(kind: int) -> int:
    return CARD0 + kind


def to_str(action: int) -> str:
    if action < BETRAY0:
        return f"ascend {cell_name(action // 2)} {_DIRS[action % 2]}"
    if action < FILL0:
        k, t = divmod(action - BETRAY0, CELLS)
        return f"betray {CLANS[k]} {cell_name(t)}"
    if action < PASS:
        return f"fill from {cell_name(action - FILL0)}"
    if action == PASS:
        return "pass"
    if action < CARD0:
        return f"reveal {CLANS[action - REVEAL0]}"
    if action < NUM_ACTIONS:
        return f"card {card_name(action - CARD0)}"
    raise ValueError(f"no King's Kilt action {action}")


def parse(text: str) -> int | None:
    """Returns the action named by ``text`` (legal or not), or None if it is not notation."""
    words = text.strip().lower().split()
    if not words:
        return None
    head, rest = words[0], words[1:]
    if head == "ascend" and len(rest) == 2 and rest[0] in CELL_BY_NAME and rest[1] in ("left", "right", "l", "r"):
        return ascend(CELL_BY_NAME[rest[0]], 0 if rest[1] in ("left", "l") else 1)
    if head == "betray" and len(rest) == 2 and rest[0] in _CLAN_BY_NAME and rest[1] in CELL_BY_NAME:
        return betray(_CLAN_BY_NAME[rest[0]], CELL_BY_NAME[rest[1]])
    if head == "fill":
        if rest[:1] == ["from"]:
            rest = rest[1:]
        if len(rest) == 1 and rest[0] in CELL_BY_NAME:
            return fill(CELL_BY_NAME[rest[0]])
    if head == "pass" and not rest:
        return PASS
    if head == "reveal" and len(rest) == 1 and rest[0] in _CLAN_BY_NAME:
        return reveal(_CLAN_BY_NAME[rest[0]])
    if head == "card" and rest and rest[0] in _CLAN_BY_NAME:
        if len(rest) == 1:
            return card(_CLAN_BY_NAME[rest[0]])
        if len(rest) == 2 and rest[1] == "leader":
            return card(_CLAN_BY_NAME[rest[0]] + 8)
    return None
