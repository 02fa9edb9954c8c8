"""San Quentin Kings: owed goods, the end of a year, and the final scoring.

End of Year (ruling SQK-15): the craziest gang's solitary bonus, every piece
back to its cell, discards shuffled back, the handouts. Shortages (SQK-14):
owed goods arrive as soon as the supply has them. End Game Scoring: the
respect track plus Fight King (SQK-16), Drug King, Crew King (SQK-19), most
commissary, most shanks and bribe chips; the winner (SQK-20).
"""

from __future__ import annotations

from typing import Any

from .blocks import give_commissary
from .data import (
    BONUS_AMOUNT,
    BONUS_THRESHOLD,
    CREW_KING,
    CREW_KING_TIED,
    DRUG_KING,
    FIGHT_KING,
    MOST_COMMISSARY,
    MOST_SHANKS,
    PER_CHIP,
    SOLITARY_MOST,
    SOLITARY_TIED,
    YEAR_COMMISSARY,
    YEAR_SHANKS,
    YEARS,
)
from .recall import into_deck
from .riot import start_riot
from .state import (
    CELL,
    CHIPS,
    COMM,
    DPILE,
    DR,
    DUSED,
    FIGHT,
    FP,
    GSIZE,
    OWE_COMM,
    OWE_DR,
    OWE_SH,
    P_BLOCK,
    PSIZE,
    RESPECT,
    SDECK,
    SDISC,
    SH,
    SOL,
    YARD,
    Work,
)
from .tasks import BATCH, K_DRUG, K_SHANK, task


def deliver(w: Work, n: int) -> None:
    """Owed goods arrive when the supply has them, from the initiator clockwise."""
    shanks = -1  # the shank cards and drug chips in the supply, counted when someone is owed
    for i in range(n):
        p = (w.initiator + i) % n
        o = p * GSIZE
        g = w.goods
        if not (g[o + OWE_SH] or g[o + OWE_COMM] or g[o + OWE_DR]):
            continue  # owed nothing: nothing to hand out
        if shanks < 0:
            sup = w.supply
            shanks = sum(sup[SDECK : SDECK + 6])
            drugs = sum(sup[DPILE : DPILE + 6])
        give_commissary(w, p)
        g = w.goods  # read after give_commissary, which may replace it with its list
        k = min(g[o + OWE_SH], shanks)
        shanks -= k
        while k > 0:
            w.push_task(task(K_SHANK, 0, p, min(k, BATCH)))
            k -= BATCH
        k = min(g[o + OWE_DR], drugs)
        drugs -= k
        while k > 0:
            w.push_task(task(K_DRUG, 0, p, min(k, BATCH)))
            k -= BATCH


def end_year(w: Work, n: int) -> None:
    """End of Year: solitary bonus, gathering, reshuffles; then the handouts, or the riot."""
    pc = w.mut_pieces()
    g = w.mut_goods()
    # The craziest gang: most pieces in solitary.
    sol = [pc[p * PSIZE + SOL] + pc[p * PSIZE + SOL + 1] + pc[p * PSIZE + SOL + 2] for p in range(n)]
    most = max(sol)
    if most:
        top = [p for p in range(n) if sol[p] == most]
        for p in top:
            g[p * GSIZE + RESPECT] += SOLITARY_MOST if len(top) == 1 else SOLITARY_TIED
    # Gather every piece into the cell; shanks and used drugs are shuffled back.
    for p in range(n):
        o = p * PSIZE
        for t in range(3):
            pc[o + CELL + t] += pc[o + YARD + t] + pc[o + SOL + t]
            pc[o + YARD + t] = pc[o + SOL + t] = 0
    sup = w.mut_supply()
    into_deck(w, 0, sup[SDISC : SDISC + 3], n)
    into_deck(w, 3, sup[DUSED : DUSED + 3], n)
    for i in range(3):
        sup[SDECK + i] += sup[SDISC + i]
        sup[SDISC + i] = 0
        sup[DPILE + i] += sup[DUSED + i]
        sup[DUSED + i] = 0
    w.year += 1
    w.used = 0
    if w.year <= YEARS:
        for i in range(n):
            p = (w.initiator + i) % n
            o = p * PSIZE
            q = p * GSIZE
            g[q + OWE_COMM] += BONUS_AMOUNT if pc[o + CELL + 2] >= BONUS_THRESHOLD else YEAR_COMMISSARY
            g[q + OWE_SH] += BONUS_AMOUNT if pc[o + CELL + 1] >= BONUS_THRESHOLD else YEAR_SHANKS
        w.phase = P_BLOCK
        return
    start_riot(w, n)


# ---- the end ------------------------------------------------------------------------------
def score_breakdown(s: Any, n: int) -> list[dict[str, int]]:
    """Returns each player's respect by source (End Game Scoring)."""
    g = s.goods
    pc = s.pieces
    out = [{"track": g[p * GSIZE + RESPECT]} for p in range(n)]
    for p, r in enumerate(fight_king([g[q * GSIZE + FP] for q in range(n)])):
        out[p]["fight_king"] = r
    drugs = [
        [g[p * GSIZE + DR] + g[p * GSIZE + OWE_DR], g[p * GSIZE + DR + 1], g[p * GSIZE + DR + 2]] for p in range(n)
    ]
    for p, r in enumerate(drug_king(drugs)):
        out[p]["drug_king"] = r
    crews = [
        [sum(pc[p * PSIZE + z + t] for z in (CELL, YARD, SOL, FIGHT)) for t in range(3)] for p in range(n)
    ]
    for p, r in enumerate(crew_king(crews)):
        out[p]["crew_king"] = r
    for p, r in enumerate(most_of([g[q * GSIZE + COMM] for q in range(n)], MOST_COMMISSARY)):
        out[p]["most_commissary"] = r
    shanks = [sum(g[q * GSIZE + SH : q * GSIZE + SH + 3]) for q in range(n)]
    for p, r in enumerate(most_of(shanks, MOST_SHANKS)):
        out[p]["most_shanks"] = r
    for p in range(n):
        out[p]["bribe_chips"] = PER_CHIP * g[p * GSIZE + CHIPS]
        out[p]["total"] = sum(out[p].values())
    return out


def scores(s: Any, n: int) -> list[int]:
    """Returns each player's total respect: ``score_breakdown``'s totals, counted without its
    dicts (the search asks at the end of every rollout; the tests compare the two)."""
    g = s.goods
    pc = s.pieces
    gs = range(0, n * GSIZE, GSIZE)
    tot = [g[o + RESPECT] + PER_CHIP * g[o + CHIPS] for o in gs]
    for p, r in enumerate(fight_king([g[o + FP] for o in gs])):
        tot[p] += r
    _add_most(tot, [(g[o + DR] + g[o + OWE_DR], g[o + DR + 1], g[o + DR + 2]) for o in gs], _DRUG_SOLE, _DRUG_TIED)
    _add_most(tot, [(pc[o + CELL] + pc[o + YARD] + pc[o + SOL] + pc[o + FIGHT],
                     pc[o + CELL + 1] + pc[o + YARD + 1] + pc[o + SOL + 1] + pc[o + FIGHT + 1],
                     pc[o + CELL + 2] + pc[o + YARD + 2] + pc[o + SOL + 2] + pc[o + FIGHT + 2])
                    for o in range(0, n * PSIZE, PSIZE)], _CREW_SOLE, _CREW_TIED)
    for values, award in (([g[o + COMM] for o in gs], MOST_COMMISSARY),
                          ([g[o + SH] + g[o + SH + 1] + g[o + SH + 2] for o in gs], MOST_SHANKS)):
        most = max(values)
        if most and values.count(most) == 1:
            tot[values.index(most)] += award
    return tot


def _add_most(tot: list[int], counts: list[tuple[int, int, int]], sole: tuple[int, ...], tied: tuple[int, ...]) -> None:
    """Adds ``_most_per_category(counts, sole, tied)`` to ``tot``."""
    for c in range(3):
        col = [x[c] for x in counts]
        most = max(col)
        if most:
            k = col.count(most)
            r = sole[c] if k == 1 else tied[c]
            for p, x in enumerate(col):
                if x == most:
                    tot[p] += r


_DRUG_SOLE = tuple(DRUG_KING)
_DRUG_TIED = tuple(v // 2 for v in DRUG_KING)
_CREW_SOLE = (CREW_KING,) * 3
_CREW_TIED = (CREW_KING_TIED,) * 3


def winners(s: Any, n: int) -> tuple[int, ...]:
    """Returns the winners: most respect, then most fight points (ruling SQK-20); the rest share."""
    sc = scores(s, n)
    keys = [(sc[p], s.goods[p * GSIZE + FP]) for p in range(n)]
    best = max(keys)
    return tuple(p for p in range(n) if keys[p] == best)


def fight_king(fps: list[int]) -> list[int]:
    """Returns the Fight King respect of each player (ruling SQK-16): placements by fight
    points, 14/11/7/4/1; a tied group drops one level and the next placement drops with it."""
    n = len(fps)
    out = [0] * n
    level = 0
    for v in sorted(set(fps), reverse=True):
        group = [p for p in range(n) if fps[p] == v]
        if len(group) > 1:
            level += 1
        r = FIGHT_KING[level] if level < len(FIGHT_KING) else 0
        for p in group:
            out[p] = r
        level += 1
    return out


def _most_per_category(counts: list[list[int]], sole: tuple[int, ...], tied: tuple[int, ...]) -> list[int]:
    """Returns the respect for having the most of each category: ``sole[c]`` alone, ``tied[c]`` each on a tie."""
    n = len(counts)
    out = [0] * n
    for c in range(len(sole)):
        most = max(x[c] for x in counts)
        if not most:
            continue
        top = [p for p in range(n) if counts[p][c] == most]
        for p in top:
            out[p] += sole[c] if len(top) == 1 else tied[c]
    return out


def drug_king(drugs: list[list[int]]) -> list[int]:
    """Returns the Drug King respect: per colour the most chips earns its value, ties half each."""
    return _most_per_category(drugs, tuple(DRUG_KING), tuple(v // 2 for v in DRUG_KING))


def crew_king(crews: list[list[int]]) -> list[int]:
    """Returns the Crew King respect: most members of a type earns 5, tied players 2 each."""
    return _most_per_category(crews, (CREW_KING,) * 3, (CREW_KING_TIED,) * 3)


def most_of(values: list[int], award: int) -> list[int]:
    """Returns ``award`` to the single player with the most (and some), nothing on a tie."""
    most = max(values)
    top = [p for p, v in enumerate(values) if v == most]
    return [award if most and len(top) == 1 and p == top[0] else 0 for p in range(len(values))]


# ---- how the game ended, for the final screen and the lab ------------------------------------
FIGURES = ("respect", "fight_points", "respect_track", "fight_king", "drug_king", "crew_king", "bribe_chips",
           "pieces_left")


def figures(s: Any, n: int) -> dict[str, tuple[int, ...]]:
    """Returns the per-seat figures named in FIGURES: total respect and its main sources, fight
    points, bribe chips kept and the pieces still in the game (cell, yard, solitary). The
    other sources (most commissary, most shanks) are in ``score_breakdown``."""
    br = score_breakdown(s, n)
    g = s.goods
    pc = s.pieces
    return {
        "respect": tuple(b["total"] for b in br),
        "fight_points": tuple(g[p * GSIZE + FP] for p in range(n)),
        "respect_track": tuple(b["track"] for b in br),
        "fight_king": tuple(b["fight_king"] for b in br),
        "drug_king": tuple(b["drug_king"] for b in br),
        "crew_king": tuple(b["crew_king"] for b in br),
        "bribe_chips": tuple(g[p * GSIZE + CHIPS] for p in range(n)),
        "pieces_left": tuple(sum(pc[p * PSIZE + z + t] for z in (CELL, YARD, SOL, FIGHT) for t in range(3))
                             for p in range(n)),
    }


def plural(k: int, word: str) -> str:
    """Returns "1 fight point", "2 fight points" (``word`` singular)."""
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def _names(players: list[int] | tuple[int, ...]) -> str:
    names = [f"player {p}" for p in players]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def outcome(s: Any, n: int) -> dict:
    """Returns the winners, a reason code and a sentence (ruling SQK-20: most respect, then most
    fight points; players still tied share the win)."""
    sc = scores(s, n)
    fps = [s.goods[p * GSIZE + FP] for p in range(n)]
    win = list(winners(s, n))
    best = sc[win[0]]
    tied = [p for p in range(n) if sc[p] == best]
    if len(tied) == 1:
        return {"winners": win, "reason": "most_respect", "text": f"player {win[0]} wins with {best} respect"}
    if len(win) == 1:
        others = [fps[p] for p in tied if p != win[0]]
        return {
            "winners": win,
            "reason": "tie_fight_points",
            "text": f"tie on {best} respect between {_names(tied)}, broken by fight points: player {win[0]} wins "
                    f"with {plural(fps[win[0]], 'fight point')} (against {', '.join(map(str, others))})",
        }
    return {
        "winners": win,
        "reason": "shared",
        "text": f"{_names(win)} share the win: tie on {best} respect and {plural(fps[win[0]], 'fight point')}",
    }
