"""Gangs of Green City components, read once from ``gangs_of_green_city.json``.

Ids used everywhere::

    POI          0..47   places of interest, twelve per district in district order;
                 PARK = 48 is Center Park (the start space, no card, no spheres)
    district/gang 0 The Tonys, 1 The Louies, 2 The Left Hand, 3 The Officials
    hero card    0..47 the POI cards, 48..52 the respite cards (RESPITE0 + r);
                 ESCALATION! cards are ids 53 + e (they never stay in a hand)
    gang card    0..47, one per POI
    cast         0 Green Ghost, 1 Professor Vance, 2 Detective Ruiz,
                 3 Mayor Maple, 4 Nell the Cabbie
    spheres      a flat tuple: spheres[poi * 4 + gang]

The map (designed, see docs/rulings/gangs-of-green-city.md) sits on a
1000 x 600 board whose west and east edges wrap around::

       Little Palermo (Tonys)   |   The Hollows (Left Hand)
     Iago ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~ Lighthouse   (wrap)
                      Center Park (500, 300)
       Bayou Flats (Louies)     |   Civic Heights (Officials)
     Greyhound Station ~~~~~~~~~~~ Alien Weapons Marketplace  (wrap)
     Iago ~~~~~~~~~~~~~~~~~~~~~~~~ Alien Weapons Marketplace  (wrap)
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = json.loads(Path(__file__).with_name("gangs_of_green_city.json").read_text())

PLACES: tuple[dict, ...] = tuple(DATA["places"])
NUM_POIS = len(PLACES)
PARK = NUM_POIS
POI_NAMES: tuple[str, ...] = tuple(p["name"] for p in PLACES)
PARK_NAME: str = DATA["center_park"]["name"]
ALL_NAMES: tuple[str, ...] = POI_NAMES + (PARK_NAME,)
POI_BY_NAME: dict[str, int] = {n.lower(): i for i, n in enumerate(ALL_NAMES)}
DISTRICT: tuple[int, ...] = tuple(p["district"] for p in PLACES)
DISTRICTS: tuple[dict, ...] = tuple(DATA["districts"])
NUM_GANGS = len(DISTRICTS)
GANG_NAMES: tuple[str, ...] = tuple(d["gang"] for d in DISTRICTS)
GANG_IDS: tuple[str, ...] = tuple(DATA["gang_ids"])
GANG_BY_WORD: dict[str, int] = {}
for _g, _d in enumerate(DISTRICTS):
    for _w in (_d["gang"], _d["gang"].removeprefix("The "), GANG_IDS[_g], _d["name"], _d["colour"]):
        GANG_BY_WORD[_w.lower()] = _g


def _neighbours() -> tuple[tuple[int, ...], ...]:
    nb: list[set[int]] = [set() for _ in range(NUM_POIS + 1)]
    for a, b in DATA["edges"]:
        i, j = POI_BY_NAME[a.lower()], POI_BY_NAME[b.lower()]
        nb[i].add(j)
        nb[j].add(i)
    for name in DATA["center_park"]["neighbours"]:
        nb[PARK].add(POI_BY_NAME[name.lower()])  # one way: Center Park cannot be re-entered
    return tuple(tuple(sorted(s)) for s in nb)


# NEIGHBOURS[poi]: POIs joined by a white line (Center Park's four exits at index PARK;
# no POI lists Center Park, since it is not a playable space once left).
NEIGHBOURS: tuple[tuple[int, ...], ...] = _neighbours()
FEATURED: tuple[int, ...]  # filled below: cast id pictured on each gang card

CAST: tuple[dict, ...] = tuple(DATA["cast"])
CAST_NAMES: tuple[str, ...] = tuple(c["name"] for c in CAST)
CAST_BY_NAME: dict[str, int] = {n.lower(): i for i, n in enumerate(CAST_NAMES)}
NUM_CAST = len(CAST)
GHOST, PROFESSOR, DETECTIVE, MAYOR, CABBIE = range(5)
FEATURED = tuple(CAST_BY_NAME[p["featured"].lower()] for p in PLACES)

RESPITES: tuple[dict, ...] = tuple(DATA["respites"])
NUM_RESPITES = len(RESPITES)
RESPITE_NAMES: tuple[str, ...] = tuple(r["name"] for r in RESPITES)
ROOFTOP, FUNDRAISER, QUIET, WITNESS, WATCH = range(5)
RESPITE0 = NUM_POIS  # hero card id of respite r
NUM_HERO = NUM_POIS + NUM_RESPITES  # POI and respite cards (53)
ESC_FEATURED: tuple[int, ...] = tuple(CAST_BY_NAME[n.lower()] for n in DATA["escalations"])
MAX_ESCALATIONS = len(ESC_FEATURED)
ESC_CARD0 = NUM_HERO  # hero card id of ESCALATION! card e

METER: tuple[int, ...] = tuple(DATA["escalation_meter"])
WAR_LOSS: int = DATA["war_meter_loss"]
SPHERES_PER_GANG: int = DATA["spheres_per_gang"]
MAX_SPHERES: int = DATA["max_spheres_per_poi"]
SAFE_HOUSES: int = DATA["safe_houses"]
HAND_LIMIT: int = DATA["hand_limit"]
MOVES: int = DATA["moves_per_turn"]
RECRUIT_CARDS: int = DATA["recruit_cards"]
PROFESSOR_RECRUIT_CARDS: int = DATA["professor_recruit_cards"]
HERO_DRAWS: int = DATA["hero_draws_per_turn"]
STARTING_HANDS: dict[int, int] = {int(k): v for k, v in DATA["starting_hands"].items()}
SETUP_SPHERES: tuple[int, ...] = tuple(DATA["setup_spheres"])
START_SAFE_HOUSE: int = POI_BY_NAME[DATA["start_safe_house"].lower()]
HEADQUARTERS: int = POI_BY_NAME[DATA["headquarters"].lower()]
CARD_BY_NAME: dict[str, int] = {n.lower(): i for i, n in enumerate(POI_NAMES + RESPITE_NAMES)}


def hero_card_name(c: int) -> str:
    """Returns the name of hero card ``c`` (a POI, a respite or an ESCALATION!)."""
    if c < NUM_POIS:
        return POI_NAMES[c]
    if c < NUM_HERO:
        return RESPITE_NAMES[c - NUM_POIS]
    e = c - ESC_CARD0
    return f"ESCALATION! #{e + 1} ({CAST_NAMES[ESC_FEATURED[e]]})"


def distances() -> tuple[tuple[int, ...], ...]:
    """Returns travel distances between every two POIs (breadth-first search)."""
    out = []
    for src in range(NUM_POIS):
        d = [99] * NUM_POIS
        d[src] = 0
        frontier = [src]
        while frontier:
            nxt = []
            for a in frontier:
                for b in NEIGHBOURS[a]:
                    if d[b] == 99:
                        d[b] = d[a] + 1
                        nxt.append(b)
            frontier = nxt
        out.append(tuple(d))
    return tuple(out)


DIST: tuple[tuple[int, ...], ...] = distances()
