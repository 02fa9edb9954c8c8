"""What each player may know of a King's Kilt state, and states consistent with it.

A player sees their own family and influence cards, the family cards others
have turned face up, the pyramid, the draw pile's top card and size, the
discards, and the counts of others' hands. At the end every family is shown
("All players reveal the three family cards").
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...core.api import CHANCE
from . import actions as A
from .data import CELLS, CLANS, NUM_CLANS, ROW_NAMES, card_name, cell_name, clan_of, is_leader
from .state import END, PHASE_NAMES, SETUP_FAMILY, SETUP_INFLUENCE, State

if TYPE_CHECKING:
    from .rules import KingsKilt


def _card(kind: int) -> dict | None:
    if kind < 0:
        return None
    return {"clan": CLANS[clan_of(kind)], "leader": is_leader(kind)}


def _clans(mask_or_seq) -> list[str]:
    return [CLANS[k] for k in mask_or_seq]


def view(game: KingsKilt, s: State, player: int | None) -> dict:
    n = game.num_players
    cp = game.current_player(s)
    over = s.phase == END
    revealed = [[CLANS[k] for k in s.family[q] if s.revealed[q] >> k & 1] for q in range(n)]
    out = {
        "game": game.id,
        "players": n,
        "you": player,
        "phase": PHASE_NAMES[s.phase],
        "to_move": "chance" if cp == CHANCE else (None if cp < 0 else cp),
        "current": s.current,
        "pyramid": [_card(k) for k in s.pyramid],
        "cells": [cell_name(i) for i in range(CELLS)],
        "row_names": list(ROW_NAMES),
        "draw_pile": {"top": _card(s.top), "size": s.pile_n + (s.top >= 0) if s.phase > SETUP_INFLUENCE else None},
        "discards": {CLANS[k]: s.discards[k] for k in range(NUM_CLANS) if s.discards[k]},
        "removed": [card_name(k) for k in range(len(s.removed)) for _ in range(s.removed[k])],
        "crowned": bool(s.crowned),
        "vacuum": cell_name(s.vacuum) if s.vacuum >= 0 else None,
        "noblemen_reward": None if s.noblemen < 0 else s.noblemen,
        "guardians_reward": None if s.guardians < 0 else s.guardians,
        "pending_reveals": list(s.pending),
        "passed": [bool(s.passed >> q & 1) for q in range(n)],
        "hand_sizes": [sum(h) for h in s.hands],
        "family_sizes": [len(f) for f in s.family],
        "revealed_family": revealed,
        "deal": s.deal if s.phase <= SETUP_INFLUENCE + 1 else None,
    }
    if player is not None:
        out["family"] = [{"clan": CLANS[k], "revealed": bool(s.revealed[player] >> k & 1)} for k in s.family[player]]
        out["influence"] = {CLANS[k]: c for k, c in enumerate(s.hands[player]) if c}
    if over:
        scores = game.scores(s)
        out["families"] = [_clans(f) for f in s.family]
        out["scores"] = list(scores)
        out["winners"] = list(game.winners(s))
        out["returns"] = list(game.returns(s))
    return out


def sample_hidden(game: KingsKilt, s: State, player: int | None, rng: random.Random) -> State:
    """Deals the cards ``player`` cannot see again, at random, keeping every count they know.

    Hidden: other players' face-down family cards and influence cards, and the
    order and make-up of the draw pile under its top. Leaders are never in a
    hand, so the unseen leaders stay in the pile. Family cards keep distinct
    clans and keep the clans already turned face up.
    """
    if s.phase == END:
        return s
    n = game.num_players
    others = [q for q in range(n) if q != player]
    pool = list(s.unseen[:NUM_CLANS])
    fam_fixed: dict[int, tuple[int, ...]] = {}
    fam_hidden: dict[int, int] = {}
    for q in others:
        fixed = tuple(k for k in s.family[q] if s.revealed[q] >> k & 1)
        fam_fixed[q] = fixed
        fam_hidden[q] = len(s.family[q]) - len(fixed)
        for k in s.family[q]:
            if not s.revealed[q] >> k & 1:
                pool[k] += 1
        for k in range(NUM_CLANS):
            pool[k] += s.hands[q][k]
    # Family cards: distinct clans per player, chosen by a randomised backtracking search.
    families = dict(fam_fixed)
    slots = [q for q in others for _ in range(fam_hidden[q])]
    if not _assign(slots, 0, families, pool, rng):  # pragma: no cover - the true deal is a solution
        raise RuntimeError("no consistent family deal")
    hands = list(s.hands)
    for q in others:
        size = sum(s.hands[q])
        drawn = [0] * NUM_CLANS
        for _ in range(size):
            k = _draw(pool, rng)
            drawn[k] += 1
            pool[k] -= 1
        hands[q] = tuple(drawn)
    family = tuple(tuple(sorted(families[q])) if q in families else s.family[q] for q in range(n))
    unseen = tuple(pool) + s.unseen[NUM_CLANS:]
    return State(
        s.phase, s.deal, s.pyramid, s.top, unseen, s.pile_n, s.discards, s.removed, family,
        s.revealed, tuple(hands), s.current, s.vacuum, s.crowned, s.noblemen, s.guardians,
        s.pending, s.passed,
    )


def _draw(pool: list[int], rng: random.Random) -> int:
    r = rng.randrange(sum(pool))
    for k, c in enumerate(pool):
        if r < c:
            return k
        r -= c
    raise AssertionError("empty pool")


def _assign(slots: list[int], i: int, families: dict, pool: list[int], rng: random.Random) -> bool:
    if i == len(slots):
        return True
    q = slots[i]
    choices = [k for k in range(NUM_CLANS) if pool[k] and k not in families[q]]
    weights = [pool[k] for k in choices]
    order = []
    while choices:  # weighted order without replacement
        r = rng.random() * sum(weights)
        j = 0
        while j < len(weights) - 1 and r >= weights[j]:
            r -= weights[j]
            j += 1
        order.append(choices.pop(j))
        weights.pop(j)
    for k in order:
        pool[k] -= 1
        families[q] = families[q] + (k,)
        if _assign(slots, i + 1, families, pool, rng):
            return True
        families[q] = families[q][:-1]
        pool[k] += 1
    return False


def observe_action(game: KingsKilt, s: State, action: int, player: int | None, observer: int | None) -> str | None:
    """Returns the log line ``observer`` sees: secret deals are shown only to their receiver."""
    if s.phase == SETUP_FAMILY or s.phase == SETUP_INFLUENCE:
        who = s.deal % game.num_players
        what = "family" if s.phase == SETUP_FAMILY else "influence"
        if observer == who:
            return f"you are dealt {'an' if what[0] in 'aeiou' else 'a'} {what} card: {CLANS[clan_of(action - A.CARD0)]}"
        return f"player {who} is dealt {'an' if what[0] in 'aeiou' else 'a'} {what} card"
    if player is None or player < 0:
        return f"{A.to_str(action)} (turned up)"
    return f"player {player}: {A.to_str(action)}"

