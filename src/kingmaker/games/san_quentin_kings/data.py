"""San Quentin Kings components, read once from ``san_quentin_kings.json``.

Gang member types are 0 Cobra, 1 Scorpion, 2 Tarantula; drug colours 0 green
baboon, 1 white horse, 2 brown horse. Fight cards are *kinds* 0-10 in the
order of the data file; a card lying in a fight area is a *code*: a fight
card kind 0-10, or 11 + type for a shank card::

    code  0 Cobra +1      3 Cobra +2      6 Guard        9 Parole
          1 Scorpion +1   4 Scorpion +2   7 Grave       10 Steal Shank
          2 Tarantula +1  5 Tarantula +2  8 Steal Drug  11-13 shank card (C, S, T)

Blocks are 0 Shank, 1 Commissary, 2 New Arrival, 3 Drug (fights), 4 Gym,
5 Cafeteria Trade, 6 Guard Influence; 7 stands for the riot.
"""

from __future__ import annotations

import json
from pathlib import Path

_DATA = json.loads(Path(__file__).with_name("san_quentin_kings.json").read_text())
DATA = _DATA

TYPES: tuple[str, ...] = tuple(_DATA["types"])
TYPE_LETTERS = ("C", "S", "T")
PIECES_PER_TYPE: int = _DATA["pieces_per_type"]
ACTIVE_PER_TYPE: int = _DATA["active_per_type"]
SHANKS_PER_TYPE: int = _DATA["shank_cards_per_type"]
DRUGS: tuple[str, ...] = tuple(_DATA["drugs"]["names"])
DRUG_COUNTS: tuple[int, ...] = tuple(_DATA["drugs"]["counts"])
COMMISSARY: int = _DATA["commissary"]
CHIPS_PER_PLAYER: int = _DATA["bribe_chips_per_player"]
START_SHANKS: int = _DATA["start"]["shank_cards"]
START_COMMISSARY: int = _DATA["start"]["commissary"]
START_CHIPS: int = _DATA["start"]["bribe_chips"]
YEARS: int = _DATA["years"]

FIGHT_CARDS: tuple[dict, ...] = tuple(_DATA["fight_cards"])
NUM_KINDS = len(FIGHT_CARDS)
CARD_NAMES: tuple[str, ...] = tuple(c["name"] for c in FIGHT_CARDS) + tuple(f"{t} shank" for t in TYPES)
CARD_TYPE: tuple[int, ...] = tuple(c["type"] for c in FIGHT_CARDS) + (0, 1, 2)
CARD_VALUE: tuple[int, ...] = tuple(c["value"] for c in FIGHT_CARDS) + (1, 1, 1)
GUARD, GRAVE, STEAL_DRUG, PAROLE, STEAL_SHANK = 6, 7, 8, 9, 10
SHANK_CODE0 = NUM_KINDS  # 11 + type
GUARDS_PRINTED: int = FIGHT_CARDS[GUARD]["count"]
GUARDS_DEFAULT: int = GUARDS_PRINTED - _DATA["guards_removed_by_default"]
GUARD_VARIANTS: tuple[int, ...] = tuple(_DATA["guard_variants"])


def fight_deck(guards: int) -> tuple[int, ...]:
    """Returns the counts by kind of the fight deck played with ``guards`` Guard cards."""
    counts = [c["count"] for c in FIGHT_CARDS]
    counts[GUARD] = guards
    return tuple(counts)


BLOCKS: tuple[dict, ...] = tuple(_DATA["blocks"])
BLOCK_NAMES: tuple[str, ...] = tuple(b["name"] for b in BLOCKS) + ("Riot",)
BLOCK_SLUGS: tuple[str, ...] = tuple(b["slug"] for b in BLOCKS) + ("riot",)
SHANK_B, COMM_B, NEW_B, DRUG_B, GYM_B, CAFE_B, GUARD_B, RIOT = range(8)
NUM_BLOCKS = 7
ALL_BLOCKS = (1 << NUM_BLOCKS) - 1
IS_FIGHT: tuple[bool, ...] = tuple(b["fight"] for b in BLOCKS) + (True,)
# TIE_BREAKER[block] = the types from strongest to weakest; the riot's is designed.
TIE_BREAKER: tuple[tuple[int, ...], ...] = tuple(
    tuple(b.get("tie_breaker", (0, 1, 2))) for b in BLOCKS
) + (tuple(_DATA["riot_tie_breaker"]),)
# PRIORITY[block][type] = 2 for the strongest type of the tie-breaker, 1, 0.
PRIORITY: tuple[tuple[int, ...], ...] = tuple(
    tuple(2 - tb.index(t) for t in range(3)) for tb in TIE_BREAKER
)
ROUND_CARDS: tuple[int, ...] = (0,) + tuple(_DATA["fight_round_cards"])
PAYOUT: tuple[int, ...] = tuple(_DATA["fight_payout_goods"])
FP_FIRST: int = _DATA["fight_points_first"]
FP_RIOT: int = _DATA["riot_fight_points"]
CAFE_SHANKS: int = _DATA["cafeteria"]["shank_cards"]
CAFE_DRUGS: int = _DATA["cafeteria"]["drug_chips"]
CAFE_RESPECT: tuple[int, ...] = tuple(_DATA["cafeteria"]["respect_spots"])
GYM_MAX: int = _DATA["gym_max_pieces"]
CHIP_COST: int = _DATA["bribe_chip_cost"]
_YE = _DATA["year_end"]
SOLITARY_MOST: int = _YE["solitary_most"]
SOLITARY_TIED: int = _YE["solitary_tied"]
YEAR_COMMISSARY: int = _YE["commissary"]
YEAR_SHANKS: int = _YE["shank_cards"]
BONUS_THRESHOLD: int = _YE["bonus_threshold"]
BONUS_AMOUNT: int = _YE["bonus_amount"]
_SC = _DATA["scoring"]
FIGHT_KING: tuple[int, ...] = tuple(_SC["fight_king"])
DRUG_KING: tuple[int, ...] = tuple(_SC["drug_king"])
CREW_KING: int = _SC["crew_king"]
CREW_KING_TIED: int = _SC["crew_king_tied"]
MOST_COMMISSARY: int = _SC["most_commissary"]
MOST_SHANKS: int = _SC["most_shanks"]
PER_CHIP: int = _SC["per_bribe_chip"]

# Goods a bribe chip can be paid with (Guard Influence): 0-2 shank cards by type,
# 3-5 drug chips by colour, 6 commissary.
GOOD_NAMES: tuple[str, ...] = (
    "cobra-shank", "scorpion-shank", "tarantula-shank", "green-drug", "white-drug", "brown-drug", "commissary",
)
# The three goods a bribe can steal.
STEAL_GOODS: tuple[str, ...] = ("shank", "drug", "commissary")
