"""San Quentin Kings states as JSON (faster than the generic encoder; the same format) and their checks."""

from __future__ import annotations

import json
from typing import Any

from ...core.errors import InvalidStateError
from .data import (
    ALL_BLOCKS,
    CHIPS_PER_PLAYER,
    COMMISSARY,
    DRUG_COUNTS,
    NUM_KINDS,
    PAYOUT,
    PIECES_PER_TYPE,
    RIOT,
    SHANK_CODE0,
    SHANKS_PER_TYPE,
    YEARS,
)
from .recall import GOODS, deck_at
from .rules import current_player
from .state import (
    CHIPS,
    COMM,
    DPILE,
    DR,
    DUSED,
    FIGHT_PHASES,
    GSIZE,
    M_DRUG,
    M_SHANK,
    P_BLOCK,
    P_CAFE,
    P_DRAWN,
    P_DRUGPAY,
    P_END,
    P_FISTS,
    P_GUARD,
    P_GYM,
    P_PICK,
    P_STOLEN,
    PSIZE,
    SCHIPS,
    SCOMM,
    SDECK,
    SDISC,
    SEQ_PHASES,
    SH,
    State,
)
from .tasks import BATCH, K_INIT, K_STEAL_DRUG, is_batch, split_task

FIELDS = (
    "phase", "year", "initiator", "used", "block", "pos", "rnd", "need", "flags", "pending", "pieces", "goods",
    "supply", "fdeck", "fdisc", "cards", "bribed", "fists", "inflight", "passed", "market", "ranking", "queue",
    "known",
)
_FLAT = frozenset(("pieces", "goods", "supply", "fdeck", "fdisc", "fists", "market", "ranking", "queue", "known"))
_NESTED = frozenset(("cards", "bribed"))


def to_json(game_id: str, s: State) -> dict:
    return {
        "game": game_id,
        "state": {
            "phase": s.phase, "year": s.year, "initiator": s.initiator, "used": s.used,
            "block": s.block, "pos": s.pos, "rnd": s.rnd, "need": s.need, "flags": s.flags,
            "pending": s.pending, "pieces": list(s.pieces), "goods": list(s.goods),
            "supply": list(s.supply), "fdeck": list(s.fdeck), "fdisc": list(s.fdisc),
            "cards": [list(c) for c in s.cards], "bribed": [list(b) for b in s.bribed],
            "fists": list(s.fists), "inflight": s.inflight, "passed": s.passed,
            "market": list(s.market), "ranking": list(s.ranking), "queue": list(s.queue),
            "known": list(s.known),
        },
    }


def from_json(game: Any, data: Any) -> State:
    gid = game.id
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError as e:
            raise InvalidStateError(f"state JSON does not parse: {e}") from None
    if not isinstance(data, dict) or data.get("game") != gid or not isinstance(data.get("state"), dict):
        raise InvalidStateError(f"not a {gid} state: expected {{'game': {gid!r}, 'state': {{...}}}}")
    body = data["state"]
    if set(body) != set(FIELDS):
        missing = [f for f in FIELDS if f not in body]
        extra = [k for k in body if k not in FIELDS]
        raise InvalidStateError(
            f"{gid} state fields wrong: missing {missing}, unknown {extra}; expected {list(FIELDS)}"
        )
    args = []
    for f in FIELDS:
        v = body[f]
        if f in _NESTED:
            if not isinstance(v, list) or not all(isinstance(x, list) and _ints(x) for x in v):
                raise InvalidStateError(f"{gid} state field {f} must be a list of lists of ints")
            args.append(tuple(tuple(x) for x in v))
        elif f in _FLAT:
            if not isinstance(v, list) or not _ints(v):
                raise InvalidStateError(f"{gid} state field {f} must be a list of ints")
            args.append(tuple(v))
        else:
            if type(v) is not int:
                raise InvalidStateError(f"{gid} state field {f} must be an int")
            args.append(v)
    s = State(*args)
    try:
        validate_state(game, s)
    except InvalidStateError:
        raise
    except (TypeError, ValueError, IndexError, KeyError) as e:
        raise InvalidStateError(f"{gid} state is not valid: {e}") from None
    return s


def _ints(v: list) -> bool:
    return not v or set(map(type, v)) == {int}


def validate_state(game: Any, s: State) -> None:
    """Raises InvalidStateError when ``s`` breaks an invariant (counts add up, ranges, phases)."""
    n = game.n
    if len(s.pieces) != n * PSIZE or len(s.goods) != n * GSIZE or len(s.supply) != 14:
        raise InvalidStateError(f"pieces need {n * PSIZE} counts, goods {n * GSIZE}, supply 14")
    if len(s.fdeck) != NUM_KINDS or len(s.fdisc) != NUM_KINDS or len(s.cards) != n or len(s.market) != 11:
        raise InvalidStateError("fight deck and discards need 11 counts, cards one tuple per player, market 11")
    if not 0 <= s.initiator < n or s.phase not in range(P_END + 1) or not 1 <= s.year <= YEARS + 1:
        raise InvalidStateError("initiator, phase or year out of range")
    if min(s.pieces) < 0 or min(s.goods) < 0 or min(s.supply) < 0 or min(s.fdeck) < 0 or min(s.fdisc) < 0:
        raise InvalidStateError("a count is negative")
    pc = s.pieces
    loan = [0] * (n * 3)
    for _h, o, t in s.bribed:
        if 0 <= o < n and 0 <= t < 3:
            loan[o * 3 + t] += 1
    for p in range(n):
        o = p * PSIZE
        for t in range(3):
            here = pc[o + t] + pc[o + 3 + t] + pc[o + 6 + t] + pc[o + 9 + t] + pc[o + 12 + t] + loan[p * 3 + t]
            if here > PIECES_PER_TYPE:
                raise InvalidStateError(f"player {p} has more than {PIECES_PER_TYPE} pieces of type {t}")
    for h, o, t in s.bribed:
        if not (0 <= h < n and 0 <= o < n and h != o and 0 <= t < 3):
            raise InvalidStateError(f"bad bribed piece {(h, o, t)}")
    cards = [0] * (NUM_KINDS + 3)
    for cs in s.cards:
        for c in cs:
            if not 0 <= c < NUM_KINDS + 3:
                raise InvalidStateError(f"no card code {c}")
            cards[c] += 1
    g, sup = s.goods, s.supply
    for t in range(3):
        total = sup[SDECK + t] + sup[SDISC + t] + s.market[M_SHANK + t] + cards[SHANK_CODE0 + t] + sum(g[SH + t :: GSIZE])
        if total != SHANKS_PER_TYPE:
            raise InvalidStateError(f"{total} shank cards of type {t}, expected {SHANKS_PER_TYPE}")
        total = sup[DPILE + t] + sup[DUSED + t] + s.market[M_DRUG + t] + sum(g[DR + t :: GSIZE])
        if total != DRUG_COUNTS[t]:
            raise InvalidStateError(f"{total} drug chips of colour {t}, expected {DRUG_COUNTS[t]}")
    if sup[SCOMM] + sum(g[COMM::GSIZE]) != COMMISSARY:
        raise InvalidStateError("the commissary cubes do not add up")
    if sup[SCHIPS] + sum(g[CHIPS::GSIZE]) != CHIPS_PER_PLAYER * n:
        raise InvalidStateError("the bribe chips do not add up")
    for k in range(NUM_KINDS):
        if s.fdeck[k] + s.fdisc[k] + cards[k] != game.deck0[k]:
            raise InvalidStateError(f"fight cards of kind {k} do not add up")
    kn = s.known
    if len(kn) != deck_at(n) + GOODS or min(kn) < 0:
        raise InvalidStateError(f"known needs {deck_at(n) + GOODS} counts, none negative")
    j = deck_at(n)
    if any(kn[j + i] > sup[SDECK + i] or kn[j + 3 + i] > sup[DPILE + i] for i in range(3)):
        raise InvalidStateError("the known cards of the shank deck or drug pile are not in it")
    for o in range(n + 1):
        for q in range(n):
            j = (o * n + q) * GOODS
            if o == q and any(kn[j : j + GOODS]):
                raise InvalidStateError(f"player {q} has bounds on their own hand")
            k = q * GSIZE
            if sum(kn[j : j + 3]) > sum(g[k + SH : k + SH + 3]) or sum(kn[j + 3 : j + 6]) > sum(g[k + DR : k + DR + 3]):
                raise InvalidStateError(f"observer {o} knows more of player {q}'s cards than they hold")
    if s.phase == P_FISTS and len(s.fists) != n:
        raise InvalidStateError("the fist step needs one entry per player")
    if not (-1 <= s.block <= RIOT and 0 <= s.used <= ALL_BLOCKS and 0 <= s.rnd <= 3 and 0 <= s.pos <= n
            and 0 <= s.flags <= 7 and 0 <= s.inflight < 1 << n and 0 <= s.passed < 1 << n):
        raise InvalidStateError("block, used, round, position, flags or fight masks out of range")
    if any(not (f in (-2, -1) or 0 <= f < 512) for f in s.fists) or len(s.fists) not in (0, n):
        raise InvalidStateError("fists are -2, -1 or a fist code, one per player")
    if min(s.market) < 0 or any(not 0 <= p < n for p in s.ranking) or len(s.ranking) > len(PAYOUT):
        raise InvalidStateError("market counts or fight placings out of range")
    for t in s.queue:
        kind, mode, a, b = split_task(t)
        if not (K_INIT <= kind <= K_STEAL_DRUG and 0 <= mode <= 2 and 0 <= a < n
                and (1 <= b <= BATCH if is_batch(kind, mode) else 0 <= b < n)):
            raise InvalidStateError(f"no chance task {t}")
    if not s.queue and s.phase != P_END:
        if s.phase == P_PICK and s.pos >= len(s.ranking):
            raise InvalidStateError("a new-arrival pick needs a placed player")
        if s.phase in FIGHT_PHASES and s.pos >= n:
            raise InvalidStateError("a fight turn needs a player")
        if s.phase in SEQ_PHASES and s.pos >= n:
            raise InvalidStateError("a payment or block turn needs a player")
        if s.phase in (P_DRAWN, P_STOLEN) and not 0 <= s.pending < (NUM_KINDS if s.phase == P_DRAWN else 3 * n + 3):
            raise InvalidStateError("the pending card is out of range")
        if s.phase == P_STOLEN and s.pending // 3 - 1 == current_player(s, n):
            raise InvalidStateError("a thief does not rob themselves")
        if s.phase not in (P_BLOCK, P_GYM, P_CAFE, P_GUARD, P_DRUGPAY, P_FISTS, P_PICK) and s.phase not in FIGHT_PHASES:
            raise InvalidStateError(f"phase {s.phase} does not wait for a decision")
