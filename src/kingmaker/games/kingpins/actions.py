"""Kingpins actions as ints, and their notation.

    0..415      play card k onto stack t: k * 8 + t        "M7 on N", "M12 to NE", "Hr on SE"
    416..1247   Femme Fatale of colour c slips card k under stack t:
                416 + c * 416 + k * 8 + t                  "M9 under N with Fr"
    1248..1311  move stack a onto stack b: 1248 + a * 8 + b "move W onto NE"
    1312        end the turn (draw one card if any)        "end turn"
    1313..1364  Rub Out: discard card k: 1313 + k           "discard M3"
    1365        Rub Out: keep every card                   "keep"

so there are 1,366 player actions (``NUM_ACTIONS``, ``num_distinct_actions``).
Chance outcomes have their own range: the kind k (0..51) of the card dealt or
drawn, "card M7" (``max_chance_outcomes`` 52).

Cards are written family letter + rank (M, D red; V, B black) or Fr/Fb
(Femme Fatale), Hr/Hb (Hideout). Stacks: N, E, S, W, NE, SE, SW, NW.
"""

from __future__ import annotations

from .data import CODE, CODE_BY_NAME, COLOURS, FF_RED, NUM_KINDS, STACK_BY_NAME, STACK_NAMES

PLAY0 = 0
UNDER0 = PLAY0 + NUM_KINDS * 8
MOVE0 = UNDER0 + 2 * NUM_KINDS * 8
END_TURN = MOVE0 + 64
DISCARD0 = END_TURN + 1
KEEP = DISCARD0 + NUM_KINDS
NUM_ACTIONS = KEEP + 1
DEAL0 = 0  # chance outcomes: the card kind, in their own range
NUM_CHANCE = NUM_KINDS

_FF_CODES = {CODE[FF_RED + c].lower(): c for c in range(len(COLOURS))}


def play(k: int, t: int) -> int:
    return PLAY0 + k * 8 + t


def under(c: int, k: int, t: int) -> int:
    return UNDER0 + c * NUM_KINDS * 8 + k * 8 + t


def move(a: int, b: int) -> int:
    return MOVE0 + a * 8 + b


def discard(k: int) -> int:
    return DISCARD0 + k


def card(k: int) -> int:
    """Returns the chance outcome that deals or draws a card of kind ``k``."""
    return DEAL0 + k


def chance_to_str(k: int) -> str:
    return f"card {CODE[k]}"


def to_str(action: int, stacks: tuple[tuple[int, ...], ...] | None = None) -> str:
    """Returns the notation of ``action``; ``stacks`` chooses 'on' (a card there) or 'to' (empty)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"no Kingpins action {action}")
    if action < UNDER0:
        k, t = divmod(action - PLAY0, 8)
        word = "to" if stacks is not None and not stacks[t] else "on"
        return f"{CODE[k]} {word} {STACK_NAMES[t]}"
    if action < MOVE0:
        c, rest = divmod(action - UNDER0, NUM_KINDS * 8)
        k, t = divmod(rest, 8)
        return f"{CODE[k]} under {STACK_NAMES[t]} with {CODE[FF_RED + c]}"
    if action < END_TURN:
        a, b = divmod(action - MOVE0, 8)
        return f"move {STACK_NAMES[a]} onto {STACK_NAMES[b]}"
    if action == END_TURN:
        return "end turn"
    if action < KEEP:
        return f"discard {CODE[action - DISCARD0]}"
    if action == KEEP:
        return "keep"
    raise ValueError(f"no Kingpins action {action}")


def parse(text: str) -> int | None:
    """Returns the action named by ``text`` (legal or not), or None if it is not notation.

    "card X" gives a chance outcome (the kind), which shares ints with player actions:
    the game reads it only at a chance node.
    """
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        return None
    if words[0] == "play":
        words = words[1:]
    if not words:
        return None
    head, rest = words[0], words[1:]
    if head in ("end", "pass", "draw") and rest in ([], ["turn"]):
        return END_TURN
    if head == "keep" and not rest:
        return KEEP
    if head == "discard" and len(rest) == 1 and rest[0] in CODE_BY_NAME:
        return discard(CODE_BY_NAME[rest[0]])
    if head == "card" and len(rest) == 1 and rest[0] in CODE_BY_NAME:
        return card(CODE_BY_NAME[rest[0]])
    if head == "move" and len(rest) == 3 and rest[1] in ("onto", "on", "to"):
        a, b = STACK_BY_NAME.get(rest[0]), STACK_BY_NAME.get(rest[2])
        if a is not None and b is not None:
            return move(a, b)
        return None
    k = CODE_BY_NAME.get(head)
    if k is None:
        return None
    if len(rest) == 2 and rest[0] in ("on", "to", "onto") and rest[1] in STACK_BY_NAME:
        return play(k, STACK_BY_NAME[rest[1]])
    if len(rest) == 4 and rest[0] == "under" and rest[1] in STACK_BY_NAME and rest[2] == "with" and rest[3] in _FF_CODES:
        return under(_FF_CODES[rest[3]], k, STACK_BY_NAME[rest[1]])
    return None
