"""Kingpins components, read once from ``kingpins.json`` (every value there is designed).

A card *kind* is an int::

    0..47    ranked card: family * 12 + (rank - 1); families 0, 1 are red, 2, 3 black
    48, 49   Femme Fatale, red / black (2 copies each)
    50, 51   Hideout, red / black (2 copies each; plays as rank 0)

Sets of cards (a hand, the stockpile, the discards) are int bitmasks over 56
*physical* bits: bit k is the first copy of kind k, bit k + 4 (52..55) the
second copy of kinds 48..51. A second copy's bit is set only when the first
one is, so every set has exactly one mask.

The eight stacks around the stockpile, by index::

            NW(7)    N(0)    NE(4)
            W(3)   [stock]   E(1)
            SW(6)    S(2)    SE(5)

0..3 are the original recruitment stacks, 4..7 the corner syndicate spaces.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = json.loads(Path(__file__).with_name("kingpins.json").read_text())

HAND_SIZE: int = DATA["hand_size"]
ROUNDS: int = DATA["rounds"]
COLOURS: tuple[str, ...] = tuple(DATA["colours"])
FAMILIES: tuple[dict, ...] = tuple(DATA["families"])
RANKS: tuple[dict, ...] = tuple(DATA["ranks"])
FF: dict = DATA["femme_fatale"]
HIDEOUT: dict = DATA["hideout"]
ABILITIES: dict = DATA["abilities"]

STACK_NAMES: tuple[str, ...] = tuple(DATA["recruitment_stacks"]) + tuple(DATA["corners"])
STACK_BY_NAME = {n.lower(): i for i, n in enumerate(STACK_NAMES)}
NUM_STACKS = 8
RECRUITMENT = (0, 1, 2, 3)
CORNERS = (4, 5, 6, 7)

NUM_RANKED = len(FAMILIES) * len(RANKS)  # 48
FF_RED, FF_BLACK, HIDE_RED, HIDE_BLACK = NUM_RANKED, NUM_RANKED + 1, NUM_RANKED + 2, NUM_RANKED + 3
NUM_KINDS = NUM_RANKED + 4  # 52
NUM_CARDS = NUM_RANKED + 2 * FF["copies_per_colour"] + 2 * HIDEOUT["copies_per_colour"]  # 56
KINGPIN_RANK = len(RANKS)  # 12

# Ability codes (0: none).
NO_ABILITY, AB_ALL_CLEAR, AB_COLLECT, AB_RUB_OUT, AB_ALIBI, AB_LIE_LOW = range(6)
ABILITY_CODES = {
    "all_clear": AB_ALL_CLEAR,
    "collect": AB_COLLECT,
    "rub_out": AB_RUB_OUT,
    "alibi": AB_ALIBI,
    "lie_low": AB_LIE_LOW,
}
ABILITY_KEYS = {v: k for k, v in ABILITY_CODES.items()}
RUB_OUT_MAX_VALUE: int = ABILITIES["rub_out"]["max_value"]

_NO_RANK = -100  # a Femme Fatale has no rank: nothing is played on or under it by rank


def _build():
    rank, colour, value, ability, code, name, family = [], [], [], [], [], [], []
    for f in FAMILIES:
        for r in RANKS:
            rank.append(r["rank"])
            colour.append(COLOURS.index(f["colour"]))
            value.append(r["value"])
            ability.append(ABILITY_CODES[r["ability"]] if r["ability"] else NO_ABILITY)
            code.append(f"{f['code']}{r['rank']}")
            name.append(r["name"])
            family.append(f["name"])
    for special, rk in ((FF, _NO_RANK), (HIDEOUT, HIDEOUT.get("rank", 0))):
        for c, cname in enumerate(COLOURS):
            rank.append(rk)
            colour.append(c)
            value.append(special["value"])
            ability.append(ABILITY_CODES[special["ability"]] if special["ability"] else NO_ABILITY)
            code.append(f"{special['code']}{cname[0]}")
            name.append(special["name"])
            family.append(None)
    return tuple(rank), tuple(colour), tuple(value), tuple(ability), tuple(code), tuple(name), tuple(family)


RANK, COLOUR, VALUE, ABILITY, CODE, NAME, FAMILY = _build()
CODE_BY_NAME = {c.lower(): k for k, c in enumerate(CODE)}
COPIES: tuple[int, ...] = tuple(1 if k < NUM_RANKED else 2 for k in range(NUM_KINDS))


def _fits(k: int, top: int) -> bool:
    """True when card kind ``k`` may lie on ``top``: one rank lower, opposite colour."""
    return RANK[k] >= 0 and RANK[top] >= 0 and RANK[k] == RANK[top] - 1 and COLOUR[k] != COLOUR[top]


# ONTO[top]: the kinds that may be played on a stack whose top card is ``top``.
ONTO: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(NUM_KINDS) if _fits(k, t)) for t in range(NUM_KINDS)
)
# UNDER[bottom]: the kinds a Femme Fatale may slip under a stack whose bottom card is ``bottom``.
UNDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(NUM_KINDS) if _fits(b, k)) for b in range(NUM_KINDS)
)
# The same as bits of kinds. A stack with bottom b may move onto a stack whose top is in UNDER[b].
ONTO_BITS: tuple[int, ...] = tuple(sum(1 << k for k in ks) for ks in ONTO)
UNDER_BITS: tuple[int, ...] = tuple(sum(1 << k for k in ks) for ks in UNDER)

KINGPINS: tuple[int, ...] = tuple(k for k in range(NUM_KINDS) if RANK[k] == KINGPIN_RANK)
FULL_DECK = (1 << NUM_CARDS) - 1
KIND_BITS = (1 << NUM_KINDS) - 1  # first copies only
FF_BITS = (1 << FF_RED) | (1 << FF_BLACK)
FF_ALL_BITS = FF_BITS | (FF_BITS << 4)  # both copies of both Femme Fatales
NOT_FF_BITS = KIND_BITS & ~FF_BITS  # the kinds that are not a Femme Fatale
RUB_OUT_BITS = sum(1 << k for k in range(NUM_KINDS) if VALUE[k] <= RUB_OUT_MAX_VALUE)
KINGPIN_BITS = sum(1 << k for k in KINGPINS)
# CLEAR[b]: every bit but b (a card leaves a set); BIT[b]: bit b alone (one joins it).
CLEAR: tuple[int, ...] = tuple(~(1 << b) for b in range(NUM_CARDS))
BIT: tuple[int, ...] = tuple(1 << b for b in range(NUM_CARDS))


def add_card(mask: int, k: int) -> int:
    """Returns the set ``mask`` with one more card of kind ``k``."""
    if k >= NUM_RANKED and mask >> k & 1:
        return mask | 1 << (k + 4)
    return mask | 1 << k


def remove_card(mask: int, k: int) -> int:
    """Returns the set ``mask`` with one card of kind ``k`` fewer (it must hold one)."""
    if k >= NUM_RANKED and mask >> (k + 4) & 1:
        return mask & ~(1 << (k + 4))
    return mask & ~(1 << k)


def count(mask: int, k: int) -> int:
    """Returns how many cards of kind ``k`` the set holds."""
    if k >= NUM_RANKED:
        return (mask >> k & 1) + (mask >> (k + 4) & 1)
    return mask >> k & 1


# _KINDS_OF[i][b]: the kinds of the ranked bits b of byte i (bits 8i .. 8i + 7) of a set;
# _KINDS_TOP[b]: those of the byte b of bits 48..55 (a kind twice where both copies are in).
_KINDS_OF = tuple(tuple(tuple(8 * i + j for j in range(8) if b >> j & 1) for b in range(256)) for i in range(6))
_KINDS_TOP = tuple(
    tuple(k for j in range(4) if b >> j & 1 for k in (NUM_RANKED + j,) * (1 + (b >> (j + 4) & 1)))
    for b in range(256)
)


def kinds(mask: int) -> list[int]:
    """Returns the cards of a set as sorted kinds, with repeats for second copies."""
    k0, k1, k2, k3, k4, k5 = _KINDS_OF
    lo = mask & 0xFFFFFF  # 24-bit halves of the ranked bits: small ints, cheap to shift
    hi = mask >> 24 & 0xFFFFFF
    return [*k0[lo & 255], *k1[lo >> 8 & 255], *k2[lo >> 16], *k3[hi & 255], *k4[hi >> 8 & 255],
            *k5[hi >> 16], *_KINDS_TOP[mask >> 48 & 255]]


def from_kinds(ks) -> int:
    """Returns the set holding the given kinds (with repeats)."""
    m = 0
    for k in ks:  # add_card, written out
        m |= BIT[k + 4] if k >= NUM_RANKED and m >> k & 1 else BIT[k]
    return m


def is_canonical(mask: int) -> bool:
    """True when no second-copy bit is set without its first copy."""
    if mask < 0 or mask >> NUM_CARDS:
        return False
    return all(not (mask >> (k + 4) & 1) or mask >> k & 1 for k in range(NUM_RANKED, NUM_KINDS))


def _card_info(k: int) -> dict:
    ab = ABILITY[k]
    info = {
        "code": CODE[k],
        "name": NAME[k],
        "family": FAMILY[k],
        "colour": COLOURS[COLOUR[k]],
        "rank": RANK[k] if RANK[k] >= 0 else None,
        "value": VALUE[k],
        "ability": ABILITIES[ABILITY_KEYS[ab]]["name"] if ab else None,
    }
    return {key: v for key, v in info.items() if v is not None}


_CARD_INFO = tuple(_card_info(k) for k in range(NUM_KINDS))


def card_info(k: int) -> dict:
    """Returns a card as JSON data for views: code, name, colour, value, and family, rank and
    ability where the card has one (a Femme Fatale has no family and no rank)."""
    return _CARD_INFO[k].copy()


def card_label(k: int) -> str:
    """Returns a readable card name such as 'Moretti Enforcer (red 7)' or 'Hideout (black)'."""
    col = COLOURS[COLOUR[k]]
    if k < NUM_RANKED:
        return f"{FAMILY[k]} {NAME[k]} ({col} {RANK[k]})"
    return f"{NAME[k]} ({col})"
