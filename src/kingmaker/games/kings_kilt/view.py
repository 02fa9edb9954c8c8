"""What each player may know of a King's Kilt state, and states consistent with it.

A player sees their own family and influence cards, the family cards others
have turned face up, the pyramid, the draw pile's top card and size, the
discards, and the counts of others' hands. At the end every family is shown
("All players reveal the three family cards"). Once the discards have been
shuffled into a new draw pile, everyone knows which cards that pile holds
(they saw the discards), so the view shows its make-up (ruling KK-16).

Observation tensor (``observation_tensor``), a flat float32 array("f"); seats are
relative to the observer (seat 0 is the observer, seat 1 the next player
clockwise, ...), n = number of players::

    offset           size  meaning
    0                7     phase one-hot: deal family, deal influence, lay base
                           row, play, fill vacuum, reveal family, end
    7                1     1 when a card is dealt or turned up next (chance)
    8                n     seat to move (all 0 at chance or at the end)
    8+n              n     active player's seat (whose turn it is)
    8+2n             189   pyramid: 21 cells (numbered as in data.py) x 9:
                           clan one-hot (8, clans in data order) + leader flag
    197+2n           9     draw pile's top card: clan one-hot + leader flag
    206+2n           1     draw pile size / 64 (0 while the set-up hides it)
    207+2n           1     1 when the draw pile's make-up is public (KK-16)
    208+2n           8     that make-up: members per clan / 6
    216+2n           8     discarded influence cards per clan / 6
    224+2n           16    betrayed (removed) cards per kind: members / 6,
                           then leaders / 2
    240+2n           1     1 once a King is crowned
    241+2n           21    power vacuum cell one-hot
    262+2n           n     Noblemen reward's seat one-hot
    262+3n           n     Guardians reward's seat one-hot
    262+4n           n     family reveals each seat still owes / 3
    262+5n           n     1 for each seat that has passed (out)
    262+6n           n     influence cards held per seat / 5
    262+7n           n     family cards held per seat / 3
    262+8n           8n    family cards turned face up: seat-major, clan one-hot
    262+16n          1     set-up deal counter / 24 (0 after the set-up)
    263+16n          8     the observer's family clans (face up or down)
    271+16n          8     the observer's influence cards per clan / 5
    279+16n          8n    at the end: every seat's family, seat-major
    279+24n          n     at the end: points per seat / 10
    279+25n          n     at the end: 1 for each winner
    279+26n                total (331 for 2 players, 357 for 3, 383 for 4)

The information state string (``information_state_string``) joins the same
fields, raw, from the state (not the view dict): cheap enough to key a search.
"""

from __future__ import annotations

import random
from array import array
from typing import TYPE_CHECKING

from ...core.api import CHANCE
from . import actions as A
from . import rules
from .data import (
    BELOW,
    BOTTOM,
    CELLS,
    CLANS,
    LEADERS_PER_CLAN,
    MEMBERS_PER_CLAN,
    NUM_CLANS,
    ROW_NAMES,
    TOTAL_CARDS,
    card_name,
    cell_name,
    clan_of,
    is_leader,
)
from .state import (
    END,
    FILL,
    PHASE_NAMES,
    PLAY,
    REVEAL,
    SETUP_FAMILY,
    SETUP_INFLUENCE,
    SETUP_ROW,
    State,
)

if TYPE_CHECKING:
    from .game import KingsKilt


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
    revealed = [[CLANS[k] for k in sorted(s.family[q]) if s.revealed[q] >> k & 1] for q in range(n)]
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
        "draw_pile": {
            "top": _card(s.top),
            "size": s.pile_n + (s.top >= 0) if s.phase > SETUP_INFLUENCE else None,
            "known": {CLANS[k]: s.unseen[k] for k in range(NUM_CLANS) if s.unseen[k]} if pile_known(game, s) else None,
        },
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
        out["families"] = [_clans(sorted(f)) for f in s.family]
        out["scores"] = list(rules.scores(s))
        out["winners"] = list(rules.winners(s))
        out["returns"] = list(rules.returns(game, s))
        out["outcome"] = rules.outcome(s)["text"]
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
    known = pile_known(game, s)
    # A draw pile made of reshuffled discards is public (KK-16): it keeps its cards.
    pool = [0] * NUM_CLANS if known else list(s.unseen[:NUM_CLANS])
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
    if game.one_per_clan:
        families = _deal_one_per_clan(s, player, others, fam_fixed, pool, rng)
    else:
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
    family = tuple(
        (families[q] if game.one_per_clan else tuple(sorted(families[q]))) if q in families else s.family[q]
        for q in range(n)
    )
    unseen = s.unseen if known else tuple(pool) + s.unseen[NUM_CLANS:]
    return State(
        s.phase, s.deal, s.pyramid, s.top, unseen, s.pile_n, s.discards, s.removed, family,
        s.revealed, tuple(hands), s.current, s.vacuum, s.crowned, s.noblemen, s.guardians,
        s.pending, s.passed,
    )


def pile_known(game: KingsKilt, s: State) -> bool:
    """Returns True when the draw pile's make-up is public: it holds reshuffled discards (KK-16).

    Influence cards leave a hand only by being discarded, and discards leave
    only by being reshuffled into an empty draw pile; so the cards reshuffled
    so far are the influence cards dealt less those held and those discarded.
    """
    if s.phase < PLAY:
        return False
    dealt = game.hand_size * game.num_players
    held = 0
    for h in s.hands:
        held += sum(h)
    return dealt - held - sum(s.discards) > 0


def _draw(pool: list[int], rng: random.Random) -> int:
    r = rng.randrange(sum(pool))
    for k, c in enumerate(pool):
        if r < c:
            return k
        r -= c
    raise AssertionError("empty pool")


def _deal_one_per_clan(
    s: State, player: int | None, others: list[int], fixed: dict[int, tuple[int, ...]], pool: list[int],
    rng: random.Random,
) -> dict[int, tuple[int, ...]]:
    """Deals others' families again for ``family_deal=one-per-clan`` (KK-18), in deal order.

    Each family's first two cards come from the one-per-clan pile: no clan there twice among
    all players, nor one of the observer's own first two; the third comes from the deck. Cards
    turned face up stay in their family (in some slot).
    """
    used = set(s.family[player][:2]) if player is not None else set()
    for q in others:  # the face-up cards are dealt again too, into some slot of their family
        for k in fixed[q]:
            pool[k] += 1
    slots = [(q, i < 2) for q in others for i in range(len(s.family[q]))]
    left = [sum(1 for r in slots[j:] if r[0] == q) for j, (q, _) in enumerate(slots)]
    families: dict[int, tuple[int, ...]] = {q: () for q in others}

    def fill(j: int) -> bool:
        if j == len(slots):
            return True
        q, from_pile = slots[j]
        fam = families[q]
        missing = [k for k in fixed[q] if k not in fam]
        cands = [k for k in range(NUM_CLANS) if pool[k] and k not in fam and not (from_pile and k in used)]
        if len(missing) >= left[j]:
            cands = [k for k in cands if k in missing]
        if from_pile:
            rng.shuffle(cands)
        else:
            cands = _weighted_order(cands, [pool[k] for k in cands], rng)
        for k in cands:
            pool[k] -= 1
            families[q] = fam + (k,)
            if from_pile:
                used.add(k)
            if fill(j + 1):
                return True
            if from_pile:
                used.discard(k)
            families[q] = fam
            pool[k] += 1
        return False

    if not fill(0):  # pragma: no cover - the true deal is a solution
        raise RuntimeError("no consistent one-per-clan family deal")
    return families


def _weighted_order(choices: list[int], weights: list[int], rng: random.Random) -> list[int]:
    """Returns ``choices`` in a random order, each next one drawn in proportion to its weight."""
    choices, weights, order = list(choices), list(weights), []
    while choices:
        r = rng.random() * sum(weights)
        j = 0
        while j < len(weights) - 1 and r >= weights[j]:
            r -= weights[j]
            j += 1
        order.append(choices.pop(j))
        weights.pop(j)
    return order


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
        what = "a family" if s.phase == SETUP_FAMILY else "an influence"
        if observer == who:
            return f"you are dealt {what} card: {CLANS[clan_of(action)]}"
        return f"player {who} is dealt {what} card"
    if player is None or player < 0:
        name = card_name(action)
        if s.phase == SETUP_ROW:
            return f"{name} is laid in the base row at {cell_name(BOTTOM[s.deal])}"
        if s.phase == FILL and BELOW[s.vacuum] == ():
            return f"{name} comes off the draw pile into the vacuum at {cell_name(s.vacuum)}"
        return f"{name} is turned up on the draw pile"
    return f"player {player}: {A.to_str(action)}"


# ---- research surface -----------------------------------------------------------


def observation_size(n: int) -> int:
    """Returns the length of the observation tensor for ``n`` players (see the table above)."""
    return 279 + 26 * n


_PHASE_SLOT = {SETUP_FAMILY: 0, SETUP_INFLUENCE: 1, SETUP_ROW: 2, PLAY: 3, FILL: 4, REVEAL: 5, END: 6}
# The encoder fills a fresh float32 array("f") (numpy views its buffer without a copy) from tables built
# once: a card's 9 values, a clan bit set's 8, and the zero tensor of each player count.
_CARD_VEC = [
    array("f", [1.0 if c == (k & 7) else 0.0 for c in range(NUM_CLANS)] + [1.0 if k >= NUM_CLANS else 0.0])
    for k in range(2 * NUM_CLANS)
]
_CLAN_BITS = [array("f", (float(b >> c & 1) for c in range(NUM_CLANS))) for b in range(1 << NUM_CLANS)]
_ZEROS = {n: array("f", bytes(4 * observation_size(n))) for n in range(1, 9)}


def observation_tensor(game: KingsKilt, s: State, player: int) -> array:
    """Returns ``player``'s observation, laid out as in the module's table, as a float32 array("f")."""
    n = game.num_players
    out = _ZEROS[n][:]
    cp = rules.current_player(game, s)
    out[_PHASE_SLOT[s.phase]] = 1.0
    if cp == CHANCE:
        out[7] = 1.0
    elif cp >= 0:
        out[8 + (cp - player) % n] = 1.0
    if 0 <= s.current < n:
        out[8 + n + (s.current - player) % n] = 1.0
    b = 8 + 2 * n
    for k in s.pyramid:
        if k >= 0:
            out[b:b + 9] = _CARD_VEC[k]
        b += 9
    if s.top >= 0:
        out[b:b + 9] = _CARD_VEC[s.top]
    b += 9  # 206 + 2n
    if s.phase > SETUP_INFLUENCE:
        out[b] = (s.pile_n + (s.top >= 0)) / TOTAL_CARDS
    if pile_known(game, s):
        out[b + 1] = 1.0
        un = s.unseen
        for k in range(NUM_CLANS):
            if un[k]:
                out[b + 2 + k] = un[k] / MEMBERS_PER_CLAN
    b += 10  # 216 + 2n
    for k, d in enumerate(s.discards):
        if d:
            out[b + k] = d / MEMBERS_PER_CLAN
    b += NUM_CLANS
    r = s.removed
    for k in range(NUM_CLANS):
        if r[k]:
            out[b + k] = r[k] / MEMBERS_PER_CLAN
        if r[k + NUM_CLANS]:
            out[b + NUM_CLANS + k] = r[k + NUM_CLANS] / LEADERS_PER_CLAN
    b += 2 * NUM_CLANS  # 240 + 2n
    if s.crowned:
        out[b] = float(s.crowned)
    if s.vacuum >= 0:
        out[b + 1 + s.vacuum] = 1.0
    b += 1 + CELLS  # 262 + 2n
    if 0 <= s.noblemen < n:
        out[b + (s.noblemen - player) % n] = 1.0
    if 0 <= s.guardians < n:
        out[b + n + (s.guardians - player) % n] = 1.0
    passed, hands, family, revealed, pending = s.passed, s.hands, s.family, s.revealed, s.pending
    f = b + 6 * n  # 262 + 8n: revealed family cards, seat-major
    for i in range(n):
        q = player + i
        if q >= n:
            q -= n
        if pending and q in pending:
            out[b + 2 * n + i] = pending.count(q) / 3
        if passed >> q & 1:
            out[b + 3 * n + i] = 1.0
        out[b + 4 * n + i] = sum(hands[q]) / 5
        out[b + 5 * n + i] = len(family[q]) / 3
        if revealed[q]:
            out[f + 8 * i:f + 8 * i + 8] = _CLAN_BITS[revealed[q]]
    b = 262 + 16 * n
    if s.phase <= SETUP_ROW:
        out[b] = s.deal / 24
    for c in family[player]:
        out[b + 1 + c] = 1.0
    b += 1 + NUM_CLANS  # 271 + 16n
    for k, c in enumerate(hands[player]):
        if c:
            out[b + k] = c / 5
    if s.phase == END:
        b = 279 + 16 * n
        pts = rules.scores(s)
        won = rules.winners(s)
        for i in range(n):
            q = (player + i) % n
            for c in family[q]:
                out[b + 8 * i + c] = 1.0
            out[b + 8 * n + i] = pts[q] / 10
            if q in won:
                out[b + 9 * n + i] = 1.0
    return out


def information_state_string(game: KingsKilt, s: State, player: int | None) -> str:
    """Returns a canonical string of exactly what ``player``'s view holds (None: a spectator's).

    Built from the state's fields that the view shows, not from the view dict:
    one small int per character (Latin-1), fixed fields first, then the
    variable-length ones whose lengths come earlier, so equal views give equal
    strings and different views different ones. Not meant to be read; about
    5x cheaper than the view as JSON.
    """
    phase = s.phase
    top = s.top
    out = [
        255 if player is None else player, phase, rules.current_player(game, s) + 8, s.current, top + 1,
        s.pile_n + (top >= 0) + 1 if phase > SETUP_INFLUENCE else 0,
        s.crowned, s.vacuum + 1, s.noblemen + 1, s.guardians + 1, s.passed,
        s.deal + 1 if phase <= SETUP_ROW else 0, len(s.pending),
    ]
    out += [k + 1 for k in s.pyramid]
    out += s.pending
    out += s.discards
    out += s.removed
    out += s.revealed
    for h in s.hands:
        out.append(sum(h))
    for f in s.family:
        out.append(len(f))
    if player is not None:
        out += s.hands[player]
        out += s.family[player]
    if pile_known(game, s):
        out.append(1)
        out += s.unseen[:NUM_CLANS]
    else:
        out.append(0)
    if phase == END:
        for f in s.family:
            out += sorted(f)
    return bytes(out).decode("latin-1")
