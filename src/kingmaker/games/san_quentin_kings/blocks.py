"""San Quentin Kings: choosing an action block, and the non-fight blocks (Action Blocks).

Gym, Cafeteria Trade and Guard Influence give each player one turn from the
initiator clockwise; the Drug block's payment (1 commissary or 1 shank card to
take part, ruling SQK-18) is asked the same way before its fists. Also the two
ways goods move between players and the supply: paying a good to its discard
pile, and handing out owed commissary.
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .data import (
    CAFE_B,
    CAFE_DRUGS,
    CAFE_RESPECT,
    CAFE_SHANKS,
    DRUG_B,
    GUARD_B,
    GYM_B,
    GYM_MAX,
    NUM_BLOCKS,
)
from .recall import seen_by_all, shown
from .state import (
    CELL,
    CHIPS,
    COMM,
    COURT,
    DR,
    DUSED,
    GSIZE,
    M_BUS,
    M_DRUG,
    M_R1,
    M_R2,
    M_SHANK,
    OWE_COMM,
    P_CAFE,
    P_DRUGPAY,
    P_FISTS,
    P_GUARD,
    P_GYM,
    PSIZE,
    RESPECT,
    SCHIPS,
    SCOMM,
    SDISC,
    SH,
    YARD,
    Work,
)
from .tasks import K_CDRUG, K_CSHANK, task

GYM_OPTIONS = tuple(
    (t, s, c) for t in range(GYM_MAX + 1) for s in range(GYM_MAX + 1) for c in range(GYM_MAX + 1)
    if t + s + c <= GYM_MAX
)
PAIRS = tuple((i, j) for i in range(7) for j in range(i, 7))


def start_block(w: Work, b: int, n: int) -> None:
    """Opens block ``b`` chosen by the initiator: its first phase, the cafeteria's lay-out."""
    w.block = b
    w.pos = 0
    if b == GYM_B:
        w.phase = P_GYM
    elif b == CAFE_B:
        w.phase = P_CAFE
        m = list(w.market)
        m[M_BUS] = m[M_BUS + 1] = m[M_BUS + 2] = 1
        m[M_R2] = 1 if CAFE_RESPECT.count(2) else 0
        m[M_R1] = CAFE_RESPECT.count(1)
        w.market = tuple(m)
        w.queue = (*w.queue, task(K_CSHANK, 0, 0, CAFE_SHANKS), task(K_CDRUG, 0, 0, CAFE_DRUGS))
    elif b == GUARD_B:
        w.phase = P_GUARD
    elif b == DRUG_B:
        w.phase = P_DRUGPAY
        w.fists = (-2,) * n
    else:
        w.phase = P_FISTS
        pc = w.pieces
        w.fists = tuple(-1 if pc[p * PSIZE] + pc[p * PSIZE + 1] + pc[p * PSIZE + 2] else -2 for p in range(n))


# ---- legal actions -------------------------------------------------------------------------
def blocks_left(s: Any) -> list[int]:
    """Returns the action blocks not yet played this year (the initiator's choices)."""
    return list(BLOCKS_LEFT[s.used])


# BLOCKS_LEFT[used]: the blocks not yet played when the bitmask ``used`` of blocks is played.
BLOCKS_LEFT = tuple(tuple(b for b in range(NUM_BLOCKS) if not used >> b & 1) for used in range(1 << NUM_BLOCKS))


def gym_actions(s: Any, p: int) -> list[int]:
    return list(_gym_options(s, p))


def _gym_options(s: Any, p: int) -> tuple[int, ...]:
    pc = s.pieces
    o = p * PSIZE
    key = (pc[o + CELL], pc[o + CELL + 1], pc[o + CELL + 2], pc[o + COURT], pc[o + COURT + 1])
    out = _GYM.get(key)
    if out is None:
        cc, cs, ct, court_c, court_s = key
        out = _GYM[key] = tuple(
            A.gym(t, sc, c) for t, sc, c in GYM_OPTIONS
            if c <= cc and sc <= cs and t <= ct and sc <= court_c and t <= court_s + sc
        )
    return out


# The gym and guard options by the counts that decide them (filled as they are met: a few hundred).
_GYM: dict[tuple[int, ...], tuple[int, ...]] = {}
_GUARD: dict[tuple[int, ...], tuple[int, ...]] = {}


def cafe_actions(s: Any, p: int) -> list[int]:
    if not s.goods[p * GSIZE + COMM]:
        return [A.CAFE_NONE]
    m = s.market
    o = p * PSIZE + COURT
    out = [A.CAFE_SHANK0 + t for t in range(3) if m[M_SHANK + t]]
    out += [A.CAFE_DRUG0 + d for d in range(3) if m[M_DRUG + d]]
    out += [A.CAFE_PIECE0 + t for t in range(3) if m[M_BUS + t] and s.pieces[o + t]]
    if m[M_R2]:
        out.append(A.CAFE_R2)
    if m[M_R1]:
        out.append(A.CAFE_R1)
    out.append(A.CAFE_NONE)
    return out


def guard_actions(s: Any, p: int) -> list[int]:
    if not s.supply[SCHIPS]:
        return [A.CHIP_DONE]
    return list(_guard_options(s, p))


def _guard_options(s: Any, p: int) -> tuple[int, ...]:
    """``guard_actions`` while the supply has chips (a shared tuple)."""
    g = s.goods
    o = p * GSIZE
    have = (*g[o : o + 6], g[o + COMM])
    out = _GUARD.get(have)
    if out is None:
        if len(_GUARD) > 100_000:
            _GUARD.clear()
        out = _GUARD[have] = (
            *(A.CHIP0 + i * 7 + j for i, j in PAIRS if (have[i] >= 2 if i == j else have[i] and have[j])),
            A.CHIP_DONE,
        )
    return out


def pay_actions(s: Any, p: int) -> list[int]:
    o = p * PSIZE
    if not (s.pieces[o] or s.pieces[o + 1] or s.pieces[o + 2]):
        return [A.DECLINE]
    g = s.goods
    q = p * GSIZE
    out = [A.PAY_COMM] if g[q + COMM] else []
    out += [A.PAY_SHANK0 + t for t in range(3) if g[q + SH + t]]
    out.append(A.DECLINE)
    return out


def seq_options(s: Any, p: int, ph: int) -> list[int]:
    """Returns player ``p``'s options in a one-turn-each phase (gym, cafeteria, guard, payment)."""
    if ph == P_GYM:
        return gym_actions(s, p)
    if ph == P_CAFE:
        return cafe_actions(s, p)
    if ph == P_GUARD:
        return guard_actions(s, p)
    return pay_actions(s, p)


def seq_choice(s: Any, p: int, ph: int) -> bool:
    """Returns ``len(seq_options(s, p, ph)) > 1`` (whether p has a choice to make), without the list."""
    if ph == P_GYM:
        return len(_gym_options(s, p)) > 1
    if ph == P_CAFE:
        if not s.goods[p * GSIZE + COMM]:
            return False
        m = s.market
        if m[M_SHANK] or m[M_SHANK + 1] or m[M_SHANK + 2] or m[M_DRUG] or m[M_DRUG + 1] or m[M_DRUG + 2]:
            return True
        if m[M_R2] or m[M_R1]:
            return True
        o = p * PSIZE + COURT
        pc = s.pieces
        return bool(m[M_BUS] and pc[o] or m[M_BUS + 1] and pc[o + 1] or m[M_BUS + 2] and pc[o + 2])
    if ph == P_GUARD:
        return bool(s.supply[SCHIPS]) and len(_guard_options(s, p)) > 1
    o = p * PSIZE
    pc = s.pieces
    if not (pc[o] or pc[o + 1] or pc[o + 2]):
        return False
    g = s.goods
    q = p * GSIZE
    return bool(g[q + COMM] or g[q + SH] or g[q + SH + 1] or g[q + SH + 2])


# ---- carrying them out ---------------------------------------------------------------------
def apply_seq(w: Work, p: int, a: int, ph: int) -> None:
    """Carries out player ``p``'s action ``a`` in a one-turn-each phase."""
    if ph == P_GYM:
        gym(w, p, a)
        w.pos += 1
    elif ph == P_CAFE:
        cafe(w, p, a)
        w.pos += 1
    elif ph == P_GUARD:
        if a == A.CHIP_DONE:
            w.pos += 1
        else:
            i, j = divmod(a - A.CHIP0, 7)
            pay_good(w, p, i)
            pay_good(w, p, j)
            w.mut_goods()[p * GSIZE + CHIPS] += 1
            w.mut_supply()[SCHIPS] -= 1
    else:  # P_DRUGPAY
        if a == A.PAY_COMM:
            pay_good(w, p, 6)
            w.put_fist(p, -1)
        elif a != A.DECLINE:
            pay_good(w, p, a - A.PAY_SHANK0)
            w.put_fist(p, -1)
        w.pos += 1


def gym(w: Work, p: int, a: int) -> None:
    """Trains pieces at the gym (ruling SQK-21)."""
    x = a - A.GYM0
    t, sc, c = x >> 4, (x >> 2) & 3, x & 3
    pc = w.mut_pieces()
    o = p * PSIZE
    # Cobras earn respect and go to the yard.
    pc[o + CELL] -= c
    pc[o + YARD] += c
    w.mut_goods()[p * GSIZE + RESPECT] += c
    # Scorpions become Cobras: the Scorpion goes to the court, a Cobra comes out to the yard.
    pc[o + CELL + 1] -= sc
    pc[o + COURT + 1] += sc
    pc[o + COURT] -= sc
    pc[o + YARD] += sc
    # Tarantulas become Scorpions.
    pc[o + CELL + 2] -= t
    pc[o + COURT + 2] += t
    pc[o + COURT + 1] -= t
    pc[o + YARD + 1] += t


def cafe(w: Work, p: int, a: int) -> None:
    """Buys one cafeteria item with one commissary (or nothing)."""
    x = a - A.CAFE0
    if x == 11:
        return
    g = p * GSIZE
    w.mut_goods()[g + COMM] -= 1
    w.mut_supply()[SCOMM] += 1
    m = list(w.market)
    if x < 3:
        m[M_SHANK + x] -= 1
        w.mut_goods()[g + SH + x] += 1
        seen_by_all(w, p, x, len(w.cards))  # bought face up: everyone saw it
    elif x < 6:
        m[M_DRUG + x - 3] -= 1
        w.mut_goods()[g + DR + x - 3] += 1
        seen_by_all(w, p, x, len(w.cards))
    elif x < 9:
        t = x - 6
        m[M_BUS + t] -= 1
        w.mut_pieces()[p * PSIZE + COURT + t] -= 1
        w.mut_pieces()[p * PSIZE + YARD + t] += 1
    elif x == 9:
        m[M_R2] = 0
        w.mut_goods()[g + RESPECT] += 2
    else:
        m[M_R1] -= 1
        w.mut_goods()[g + RESPECT] += 1
    w.market = tuple(m)


def pay_good(w: Work, p: int, i: int) -> None:
    """Pays good ``i`` (0-2 shank by type, 3-5 drug by colour, 6 commissary) to its discard pile."""
    g = p * GSIZE
    if i < 6:
        shown(w, p, i, len(w.cards))  # paid face up
    if i < 3:
        w.mut_goods()[g + SH + i] -= 1
        w.mut_supply()[SDISC + i] += 1
    elif i < 6:
        w.mut_goods()[g + DR + i - 3] -= 1
        w.mut_supply()[DUSED + i - 3] += 1
    else:
        w.mut_goods()[g + COMM] -= 1
        w.mut_supply()[SCOMM] += 1


def give_commissary(w: Work, p: int) -> None:
    """Hands player ``p`` the commissary they are owed, as far as the supply has it (SQK-14)."""
    g = p * GSIZE
    k = w.goods[g + OWE_COMM]
    if k:
        k = min(k, w.supply[SCOMM])
    if k:
        w.mut_goods()[g + OWE_COMM] -= k
        w.mut_goods()[g + COMM] += k
        w.mut_supply()[SCOMM] -= k
