"""King's Kilt actions as ints, and their notation.

Player actions (``NUM_ACTIONS`` = 240 of them, whatever the player count)::

    0..41     ascend: cell * 2 + direction (0 left, 1 right)   "ascend b3 left"
    42..209   betray: 42 + clan * 21 + target cell            "betray MacLeod e2"
    210..230  fill the vacuum with the card from a cell       "fill from a4"
    231       pass                                            "pass"
    232..239  turn a family card face up: 232 + clan          "reveal Stewart"

Chance outcomes have their own range (``NUM_CHANCE`` = 16)::

    0..15     the card dealt or turned up is kind k            "card Bruce leader"

(Records saved before chance outcomes got their own range wrote 240 + k.)
"""

from __future__ import annotations

from .data import CELL_BY_NAME, CELLS, CLANS, NUM_KINDS, card_name, cell_name

ASCEND0 = 0
BETRAY0 = 42
FILL0 = BETRAY0 + 8 * CELLS
PASS = FILL0 + CELLS
REVEAL0 = PASS + 1
NUM_ACTIONS = REVEAL0 + 8
CARD0 = 0  # chance outcomes: kind k is outcome k
NUM_CHANCE = NUM_KINDS

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


def card_str(outcome: int) -> str:
    """Returns the notation of a chance outcome ("card Bruce leader")."""
    if 0 <= outcome < NUM_CHANCE:
        return f"card {card_name(outcome)}"
    raise ValueError(f"no King's Kilt chance outcome {outcome}")


def to_str(action: int) -> str:
    """Returns the notation of a player action."""
    if action < 0:
        raise ValueError(f"no King's Kilt action {action}")
    if action < BETRAY0:
        return f"ascend {cell_name(action // 2)} {_DIRS[action % 2]}"
    if action < FILL0:
        k, t = divmod(action - BETRAY0, CELLS)
        return f"betray {CLANS[k]} {cell_name(t)}"
    if action < PASS:
        return f"fill from {cell_name(action - FILL0)}"
    if action == PASS:
        return "pass"
    if action < NUM_ACTIONS:
        return f"reveal {CLANS[action - REVEAL0]}"
    raise ValueError(f"no King's Kilt action {action}")


def parse(text: str) -> int | None:
    """Returns the player action or chance outcome named by ``text`` (legal or not), or None.

    Only "card ..." names a chance outcome (``is_card_text`` tells which).
    """
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


def is_card_text(text: str) -> bool:
    """Returns True when ``text`` is chance notation ("card ...")."""
    return text.strip().lower().startswith("card ")
