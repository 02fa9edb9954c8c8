"""Builds Gangs of Green City positions for the tests, with places and cards written by name."""

from __future__ import annotations

import kingmaker
from kingmaker.games.gangs_of_green_city.data import (
    CARD_BY_NAME,
    CAST_BY_NAME,
    DISTRICT,
    GANG_BY_WORD,
    NUM_GANGS,
    NUM_HERO,
    NUM_POIS,
    PARK,
    POI_BY_NAME,
    SPHERES_PER_GANG,
)
from kingmaker.games.gangs_of_green_city.state import MOVES, PICK_LIMIT, State, pack, sphere_count


def P(name: str) -> int:
    """Returns the id of a place (or Center Park) by name."""
    return POI_BY_NAME[name.lower()]


def C(name: str) -> int:
    """Returns the hero card id of a POI or respite card by name."""
    return CARD_BY_NAME[name.lower()]


def G(word: str) -> int:
    return GANG_BY_WORD[word.lower()]


def game(players: int = 2, **options) -> kingmaker.Game:
    return kingmaker.make("gangs-of-green-city", players=players, **options)


def position(
    g,
    *,
    cast: list[str] | None = None,
    pawns: list[str] | None = None,
    hands: list[list[str]] | None = None,
    spheres: dict[str, int | tuple[int, int]] | None = None,
    safe: tuple[str, ...] = ("Green City High School",),
    current: int = 0,
    moves: int = 4,
    ended: int = 0,
    defeated: int = 0,
    esc: int = 0,
    war: int = 0,
    hero_disc: tuple[str, ...] = (),
    gang_disc: tuple[str, ...] = (),
    gang_layers: tuple[tuple[str, ...], ...] = (),
    piles: tuple[int, ...] | None = None,
    pile_esc: tuple[int, ...] | None = None,
    tired: tuple[int, ...] | None = None,
    quiet: int = 0,
    stage: int = MOVES,
    deal: int = 0,
) -> State:
    """Returns a valid state at the active player's moves.

    ``spheres`` maps a POI name to a count of its own district's gang, or to
    ``(gang, count)`` for another gang, or to a list of such pairs. Unlisted cards are unseen in the hero
    draw pile, which is split into piles (by default: as set-up would).
    """
    n = g.num_players
    cast_ids = tuple(CAST_BY_NAME[c.lower()] for c in (cast or ["Green Ghost", "Professor Vance", "Detective Ruiz", "Mayor Maple", "Nell the Cabbie"][:n]))
    pawn_ids = tuple(P(p) for p in pawns) if pawns else (PARK,) * n
    hand_ids = tuple(tuple(sorted(C(c) for c in h)) for h in (hands or [[] for _ in range(n)]))
    sph = [0] * (NUM_POIS * NUM_GANGS)
    for name, v in (spheres or {}).items():
        poi = P(name)
        for gang, count in [(DISTRICT[poi], v)] if isinstance(v, int) else [v] if isinstance(v, tuple) else v:
            sph[poi * NUM_GANGS + gang] = count
    supply = tuple(SPHERES_PER_GANG - sum(sph[k::NUM_GANGS]) for k in range(NUM_GANGS))
    disc = tuple(sorted(C(c) for c in hero_disc))
    held = {c for h in hand_ids for c in h} | set(disc)
    pool = tuple(c for c in range(NUM_HERO) if c not in held)
    e = g.num_escalations
    if piles is None:
        base, extra = divmod(len(pool), e)
        piles = tuple(base + 1 + (i < extra) for i in range(e))
        pile_esc = (1,) * e
    esc_left = tuple(range(e - sum(pile_esc), e))
    esc_disc = tuple(NUM_HERO + k for k in range(e - sum(pile_esc)))
    s = State(
        stage, deal, cast_ids, pawn_ids, hand_ids, pack(sph), supply,
        tuple(sorted(P(x) for x in safe)), ended, defeated, esc, war, pool, tuple(piles),
        tuple(pile_esc), esc_left, tuple(sorted(disc + esc_disc)),
        tuple(sorted(P(x) for x in gang_disc)), tuple(tuple(sorted(P(x) for x in layer)) for layer in gang_layers), (),
        current, moves, tired or (0,) * n, quiet, (), -1, 0, PICK_LIMIT, -1, -1, -1, -1, -1, (), 0, "",
    )
    g.validate_state(s)
    return s


def count(s: State, poi: str, gang: str | None = None) -> int:
    """Returns the spheres of ``gang`` (default: the POI's own district) on ``poi``."""
    i = P(poi)
    k = DISTRICT[i] if gang is None else G(gang)
    return sphere_count(s.spheres, i, k)


def names(g, s) -> list[str]:
    return [g.action_to_str(s, a) for a in g.legal_actions(s)]
