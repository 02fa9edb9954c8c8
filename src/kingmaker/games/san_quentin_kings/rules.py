"""San Quentin Kings rules.

Rulebook: ``shared/rulebooks/san-quentin-kings.txt`` (sections quoted in the tests).
Rulings: ``docs/rulings/san-quentin-kings.md`` (SQK-1 ... ).

A game is three years of seven actions, then the riot. One action as a chain
of nodes::

    BLOCK   the initiator chooses an unplayed block
    non-fight blocks, one turn each from the initiator clockwise:
      GYM (one action: the pieces trained), CAFE (buy one item or nothing),
      GUARD (buy one chip at a time, then "done buying")
    fight blocks:
      DRUGPAY  (Drug block only) each player from the initiator pays or declines
      FISTS    SIMULTANEOUS: every eligible player commits one fist; revealed together
      TURN     rounds 1-3, from the initiator's left, ending with the initiator:
               pass / draw / shank / bribe ... / end turn; a drawn card may open
               DRAWN (keep or bribe-redraw), TOSOL / PAROLE (which piece),
               VIC_DRUG / VIC_SHANK (which victim), STOLEN (play the stolen shank)
      scoring; PICK (new arrivals: 1st picks 3, 2nd 2, 3rd 1 from the bus)
    collect and clean (automatic), the initiator disc moves clockwise;
    after seven actions the end of the year (automatic).

Every random event is a chance node taken from a queue of *tasks* (deal a
shank card, a drug chip, a fight card; steal one at random; the starting
initiator). Nothing shuffled is stored: only counts.
"""

from __future__ import annotations

import dataclasses
import json
import random
from math import comb
from typing import Any

from ...core.api import CHANCE, SIMULTANEOUS, TERMINAL, Game, Option
from ...core.errors import InvalidActionError, InvalidStateError
from ...core.registry import register
from . import actions as A
from .data import (
    ACTIVE_PER_TYPE,
    ALL_BLOCKS,
    BONUS_AMOUNT,
    BONUS_THRESHOLD,
    CAFE_B,
    CAFE_DRUGS,
    CAFE_RESPECT,
    CAFE_SHANKS,
    CARD_TYPE,
    CARD_VALUE,
    CHIPS_PER_PLAYER,
    COMM_B,
    COMMISSARY,
    CREW_KING,
    CREW_KING_TIED,
    DRUG_B,
    DRUG_COUNTS,
    DRUG_KING,
    FIGHT_KING,
    FP_FIRST,
    FP_RIOT,
    GRAVE,
    GUARD,
    GUARD_B,
    GUARD_VARIANTS,
    GUARDS_DEFAULT,
    GYM_B,
    GYM_MAX,
    MOST_COMMISSARY,
    MOST_SHANKS,
    NEW_B,
    NUM_BLOCKS,
    NUM_KINDS,
    PAROLE,
    PAYOUT,
    PER_CHIP,
    PIECES_PER_TYPE,
    PRIORITY,
    RIOT,
    ROUND_CARDS,
    SHANK_B,
    SHANK_CODE0,
    SHANKS_PER_TYPE,
    SOLITARY_MOST,
    SOLITARY_TIED,
    START_CHIPS,
    START_COMMISSARY,
    START_SHANKS,
    STEAL_DRUG,
    STEAL_SHANK,
    YEAR_COMMISSARY,
    YEAR_SHANKS,
    YEARS,
    fight_deck,
)
from .state import (
    CELL,
    CHIPS,
    COMM,
    COURT,
    DPILE,
    DR,
    DUSED,
    F_BRIBED,
    F_COMMITTED,
    F_GRAVE,
    FIGHT,
    FP,
    GSIZE,
    M_BUS,
    M_DRUG,
    M_R1,
    M_R2,
    M_SHANK,
    OWE_COMM,
    OWE_DR,
    OWE_SH,
    P_BLOCK,
    P_CAFE,
    P_CLEANUP,
    P_DRAWN,
    P_DRUGPAY,
    P_END,
    P_FISTS,
    P_GUARD,
    P_GYM,
    P_PAROLE,
    P_PICK,
    P_SCORE,
    P_STOLEN,
    P_TOSOL,
    P_TURN,
    P_VIC_DRUG,
    P_VIC_SHANK,
    PSIZE,
    RESPECT,
    SCHIPS,
    SCOMM,
    SDECK,
    SDISC,
    SH,
    SOL,
    YARD,
    State,
)

# Chance tasks in the queue: kind * 1000 + mode * 100 + a * 10 + b.
K_INIT = 1  # choose the first initiator
K_SHANK = 2  # a = player; mode 0 b owed shanks (1-3), 1 one stolen from the supply, 2 the same by a Steal Shank card
K_DRUG = 3  # a = player; mode 0 b owed drugs (1-3), 1 one stolen from the supply
K_CSHANK = 4  # b cafeteria shank cards, face up
K_CDRUG = 5  # b cafeteria drug chips, face up
BATCH = 3  # at most this many cards or chips are dealt in one chance node
K_FIGHT = 6  # a = player drawing a fight card
K_STEAL_SHANK = 7  # a thief, b victim; mode 1 by a Steal Shank card
K_STEAL_DRUG = 8  # a thief, b victim


def task(kind: int, mode: int = 0, a: int = 0, b: int = 0) -> int:
    return kind * 1000 + mode * 100 + a * 10 + b


def split_task(t: int) -> tuple[int, int, int, int]:
    kind, rest = divmod(t, 1000)
    mode, ab = divmod(rest, 100)
    a, b = divmod(ab, 10)
    return kind, mode, a, b


def is_batch(kind: int, mode: int) -> bool:
    """Returns True for the tasks that deal several cards or chips at once (count in ``b``)."""
    return kind == K_CSHANK or kind == K_CDRUG or (mode == 0 and (kind == K_SHANK or kind == K_DRUG))


def outcome_counts(a: int) -> tuple[tuple[int, int, int], bool]:
    """Returns the counts by type or colour dealt by chance outcome ``a``, and whether they are shanks."""
    if a < A.CH_DRUG0:
        t = a - A.CH_SHANK0
        return ((1, 0, 0), (0, 1, 0), (0, 0, 1))[t], True
    if a < A.CH_CARD0:
        t = a - A.CH_DRUG0
        return ((1, 0, 0), (0, 1, 0), (0, 0, 1))[t], False
    shank = a < A.CH_DRUGS0
    x = a - (A.CH_SHANKS0 if shank else A.CH_DRUGS0)
    return (x >> 4, (x >> 2) & 3, x & 3), shank


def _deal_outcomes(counts: tuple[int, ...], k: int, single: int, multi: int) -> list[tuple[int, float]]:
    """Returns the outcomes of dealing ``k`` items from a pile holding ``counts`` by kind: one
    outcome per kind when k = 1, else one per multiset (multivariate hypergeometric)."""
    total = counts[0] + counts[1] + counts[2]
    if k == 1:
        return [(single + i, c / total) for i, c in enumerate(counts) if c]
    out = []
    denom = comb(total, k)
    for x in range(min(k, counts[0]) + 1):
        for y in range(min(k - x, counts[1]) + 1):
            z = k - x - y
            if z <= counts[2]:
                out.append((multi + x * 16 + y * 4 + z, comb(counts[0], x) * comb(counts[1], y) * comb(counts[2], z) / denom))
    return out


_FIGHT_PHASES = frozenset((P_TURN, P_DRAWN, P_TOSOL, P_PAROLE, P_VIC_DRUG, P_VIC_SHANK, P_STOLEN))
_SEQ_PHASES = frozenset((P_GYM, P_CAFE, P_GUARD, P_DRUGPAY))
_ALL_FISTS = tuple(
    tuple(A.fist(c, s, t) for c in range(cc + 1) for s in range(ss + 1) for t in range(tt + 1))
    for cc in range(8) for ss in range(8) for tt in range(8)
)
_GYM_OPTIONS = tuple(
    (t, s, c) for t in range(GYM_MAX + 1) for s in range(GYM_MAX + 1) for c in range(GYM_MAX + 1)
    if t + s + c <= GYM_MAX
)
_FIELDS = tuple(f.name for f in dataclasses.fields(State))
_FLAT = frozenset(("pieces", "goods", "supply", "fdeck", "fdisc", "fists", "market", "ranking", "queue"))
_NESTED = frozenset(("cards", "bribed"))
_PAIRS = tuple((i, j) for i in range(7) for j in range(i, 7))


class _W:
    """A mutable working copy of a state, used inside ``apply`` only."""

    __slots__ = (
        "phase", "year", "initiator", "used", "block", "pos", "rnd", "need", "flags", "pending",
        "pieces", "goods", "supply", "fdeck", "fdisc", "cards", "bribed", "fists", "inflight",
        "passed", "market", "ranking", "queue",
    )

    def __init__(self, s: State) -> None:
        self.phase = s.phase
        self.year = s.year
        self.initiator = s.initiator
        self.used = s.used
        self.block = s.block
        self.pos = s.pos
        self.rnd = s.rnd
        self.need = s.need
        self.flags = s.flags
        self.pending = s.pending
        self.pieces = list(s.pieces)
        self.goods = list(s.goods)
        self.supply = list(s.supply)
        self.fdeck = list(s.fdeck)
        self.fdisc = list(s.fdisc)
        self.cards = list(s.cards)
        self.bribed = s.bribed
        self.fists = list(s.fists)
        self.inflight = s.inflight
        self.passed = s.passed
        self.market = list(s.market)
        self.ranking = s.ranking
        self.queue = list(s.queue)

    def freeze(self) -> State:
        return State(
            self.phase, self.year, self.initiator, self.used, self.block, self.pos, self.rnd,
            self.need, self.flags, self.pending, tuple(self.pieces), tuple(self.goods),
            tuple(self.supply), tuple(self.fdeck), tuple(self.fdisc), tuple(self.cards),
            self.bribed, tuple(self.fists), self.inflight, self.passed, tuple(self.market),
            self.ranking, tuple(self.queue),
        )


# ---- reading a state (work on a State or a _W alike) ------------------------------------
def strength(s: Any, p: int) -> list[int]:
    """Returns the fight strength of player ``p`` by type: pieces, plus the cards of a
    type while at least one piece of that type stands in the fight (Scoring Fight)."""
    f = p * PSIZE + FIGHT
    pc = [s.pieces[f], s.pieces[f + 1], s.pieces[f + 2]]
    for h, _o, t in s.bribed:
        if h == p:
            pc[t] += 1
    cs = [0, 0, 0]
    for code in s.cards[p]:
        t = CARD_TYPE[code]
        if t >= 0:
            cs[t] += CARD_VALUE[code]
    return [pc[t] + cs[t] if pc[t] else 0 for t in range(3)]


def fight_key(st: list[int], block: int) -> tuple[int, ...]:
    """Returns the comparison key of one gang's strengths (ruling SQK-6): the strongest
    single type's strength, then that type's rank in the block's tie-breaker, then the
    second strongest type's strength and rank, then the third's."""
    pr = PRIORITY[block]
    order = sorted(range(3), key=lambda t: (st[t], pr[t]), reverse=True)
    out: list[int] = []
    for t in order:
        out.append(st[t])
        out.append(pr[t] if st[t] else -1)
    return tuple(out)


def area_pieces(s: Any, h: int) -> int:
    """Returns the number of pieces standing in player ``h``'s fight area."""
    f = h * PSIZE + FIGHT
    return s.pieces[f] + s.pieces[f + 1] + s.pieces[f + 2] + sum(1 for x in s.bribed if x[0] == h)


def area_targets(s: Any, p: int, n: int) -> list[tuple[int, int, int]]:
    """Returns the (holder, owner, type) of every piece in the other players' fight areas."""
    out = set()
    pieces = s.pieces
    for h in range(n):
        if h != p:
            f = h * PSIZE + FIGHT
            for t in range(3):
                if pieces[f + t]:
                    out.add((h, h, t))
    for x in s.bribed:
        if x[0] != p:
            out.add(x)
    return sorted(out)


def steal_victims(s: Any, p: int, off: int, n: int) -> list[int]:
    """Returns who a Steal Drug (``off`` = DR) or Steal Shank (SH) card drawn by ``p`` may rob
    (ruling SQK-12): the other players in this fight holding that good. An empty fist is "immune
    to anything that may occur" (Preparing to Fight); a passed fighter is still in the fight."""
    g = s.goods
    fl = s.inflight
    return [q for q in range(n) if q != p and fl >> q & 1 and g[q * GSIZE + off] + g[q * GSIZE + off + 1]
            + g[q * GSIZE + off + 2]]


@register
class SanQuentinKings(Game):
    """San Quentin Kings: prison gangs fight for goods over three years, then riot."""

    id = "san-quentin-kings"
    name = "San Quentin Kings"
    min_players = 3
    max_players = 5
    has_chance = True
    perfect_information = False
    has_simultaneous = True
    zero_sum = False
    constant_sum = 1.0
    min_return = 0.0
    max_return = 1.0
    rulebook = "san-quentin-kings.txt"
    summary = "Prison gangs: secret fists, risky fights, bribes, three years and a riot; most respect wins."
    options = (
        Option(
            "guards",
            GUARDS_DEFAULT,
            GUARD_VARIANTS,
            "Guard cards in the fight deck: 6 a safer deck, 8 recommended, 10 very risky (Fight Deck Variant)",
        ),
    )
    State = State
    conformance_games = 100
    conformance_hidden_every = 25
    # normal searches 200 iterations (about 1 s a move on an idle core, within its 1.5 s
    # cap): on the same 30 seeded games it won 23 against two heuristic bots where 100
    # iterations won 16 (docs/agents.md).
    search_hints = {"normal": {"iterations": 200}}

    def __init__(self, players: int, **options: Any) -> None:
        super().__init__(players, **options)
        self.n = players
        self.guards = self.option_values["guards"]
        self.deck0 = fight_deck(self.guards)
        self._order = tuple(tuple((i + k) % players for k in range(players)) for i in range(players))
        self._view_cache: tuple | None = None  # (state, public part of its views), see view.py

    def max_game_length(self) -> int:
        # Set-up: 1 + n chance. Each of the 21 actions: 1 block choice; gym/cafeteria
        # n + 6 chance; guard influence at most 2n chips (all there are) + n "done";
        # a fight: n payments + n fists + 3 rounds x n turns, a turn being at most 1
        # start + 4 draws (2 cards, 1 extra by bribe, 1 redraw), each draw with its
        # chance node, keep/redraw, a piece or victim choice, a steal's chance node and
        # playing the stolen shank (7), 2 for the bribe and 1 to end = 32; then 6
        # payouts. Deliveries of owed goods and year-end handouts: at most every shank
        # and drug there is each year (21 + 28) plus the handouts (4n) per year. The
        # riot is one more fight.
        n = self.num_players
        fight = 2 * n + 3 * n * 32 + 6
        return 1 + n + 21 * (1 + max(fight, 3 * n + 6)) + 4 * (49 + 4 * n) + fight + 49

    # ---- set-up ---------------------------------------------------------------
    def new_initial_state(self) -> State:
        n = self.n
        a = ACTIVE_PER_TYPE
        c = PIECES_PER_TYPE - a
        pieces = (a, a, a, 0, 0, 0, 0, 0, 0, c, c, c, 0, 0, 0) * n
        goods = (0, 0, 0, 0, 0, 0, START_COMMISSARY, START_CHIPS, 0, 0, START_SHANKS, 0, 0) * n
        supply = (
            (SHANKS_PER_TYPE,) * 3 + (0, 0, 0) + DRUG_COUNTS + (0, 0, 0)
            + (COMMISSARY - START_COMMISSARY * n, CHIPS_PER_PLAYER * n - START_CHIPS * n)
        )
        queue = (task(K_INIT),) + tuple(task(K_SHANK, 0, p, START_SHANKS) for p in range(n))
        return State(
            P_BLOCK, 1, 0, 0, -1, 0, 0, 0, 0, -1, pieces, goods, supply, self.deck0,
            (0,) * NUM_KINDS, ((),) * n, (), (), 0, 0, (0,) * 11, (), queue,
        )

    # ---- whose turn -------------------------------------------------------------
    def current_player(self, s: State) -> int:
        if s.queue:
            return CHANCE
        ph = s.phase
        if ph in _FIGHT_PHASES:
            return (s.initiator + 1 + s.pos) % self.n
        if ph == P_BLOCK:
            return s.initiator
        if ph in _SEQ_PHASES:
            return (s.initiator + s.pos) % self.n
        if ph == P_FISTS:
            return SIMULTANEOUS
        if ph == P_PICK:
            return s.ranking[s.pos]
        return TERMINAL

    def simultaneous_players(self, s: State) -> tuple[int, ...]:
        if s.queue or s.phase != P_FISTS:
            return ()
        return tuple(p for p, f in enumerate(s.fists) if f == -1)

    # ---- chance -----------------------------------------------------------------
    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        if not s.queue:
            return super().chance_outcomes(s)
        kind, _mode, a, b = split_task(s.queue[0])
        if kind == K_INIT:
            return [(A.CH_PLAYER0 + p, 1.0 / self.n) for p in range(self.n)]
        if kind <= K_CDRUG:
            if kind == K_SHANK or kind == K_CSHANK:
                counts, single, multi = s.supply[SDECK : SDECK + 3], A.CH_SHANK0, A.CH_SHANKS0
            else:
                counts, single, multi = s.supply[DPILE : DPILE + 3], A.CH_DRUG0, A.CH_DRUGS0
            return _deal_outcomes(counts, self._batch_size(s, kind, _mode, a, b), single, multi)
        if kind == K_FIGHT:
            counts, base = s.fdeck, A.CH_CARD0
        elif kind == K_STEAL_SHANK:
            g = b * GSIZE + SH
            counts, base = s.goods[g : g + 3], A.CH_SHANK0
        else:  # K_STEAL_DRUG
            g = b * GSIZE + DR
            counts, base = s.goods[g : g + 3], A.CH_DRUG0
        total = sum(counts)
        return [(base + k, c / total) for k, c in enumerate(counts) if c]

    # ---- legal actions ----------------------------------------------------------
    def legal_actions(self, s: State, player: int | None = None) -> list[int]:
        if s.queue:
            return [a for a, _ in self.chance_outcomes(s)] if player is None else []
        ph = s.phase
        if ph == P_FISTS:
            if player is None or not 0 <= player < self.n or s.fists[player] != -1:
                return []
            o = player * PSIZE
            pc = s.pieces
            return list(_ALL_FISTS[pc[o] * 64 + pc[o + 1] * 8 + pc[o + 2]])
        cp = self.current_player(s)
        if cp < 0 or (player is not None and player != cp):
            return []
        if ph == P_TURN:
            return self._turn_actions(s, cp)
        if ph == P_BLOCK:
            return [b for b in range(NUM_BLOCKS) if not s.used >> b & 1]
        if ph == P_GYM:
            return self._gym_actions(s, cp)
        if ph == P_CAFE:
            return self._cafe_actions(s, cp)
        if ph == P_GUARD:
            return self._guard_actions(s, cp)
        if ph == P_DRUGPAY:
            return self._pay_actions(s, cp)
        if ph == P_DRAWN:
            return [A.KEEP, A.REDRAW]
        if ph == P_TOSOL or ph == P_PAROLE:
            f = cp * PSIZE + FIGHT
            base = A.TOSOL0 if ph == P_TOSOL else A.PAROLE0
            return [base + t for t in range(3) if s.pieces[f + t]]
        if ph == P_VIC_DRUG or ph == P_VIC_SHANK:
            base = A.VICDRUG0 if ph == P_VIC_DRUG else A.VICSHANK0
            return [base + q for q in steal_victims(s, cp, DR if ph == P_VIC_DRUG else SH, self.n)]
        if ph == P_STOLEN:
            return [A.PLAY_STOLEN, A.KEEP_STOLEN]
        if ph == P_PICK:
            return self._pick_actions(s, cp)
        return []

    def _gym_actions(self, s: Any, p: int) -> list[int]:
        pc = s.pieces
        o = p * PSIZE
        cc, cs, ct = pc[o + CELL], pc[o + CELL + 1], pc[o + CELL + 2]
        court_c, court_s = pc[o + COURT], pc[o + COURT + 1]
        return [
            A.gym(t, sc, c) for t, sc, c in _GYM_OPTIONS
            if c <= cc and sc <= cs and t <= ct and sc <= court_c and t <= court_s + sc
        ]

    def _cafe_actions(self, s: Any, p: int) -> list[int]:
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

    def _guard_actions(self, s: Any, p: int) -> list[int]:
        if not s.supply[SCHIPS]:
            return [A.CHIP_DONE]
        g = s.goods
        o = p * GSIZE
        have = (*g[o : o + 6], g[o + COMM])
        out = [A.CHIP0 + i * 7 + j for i, j in _PAIRS if (have[i] >= 2 if i == j else have[i] and have[j])]
        out.append(A.CHIP_DONE)
        return out

    def _pay_actions(self, s: Any, p: int) -> list[int]:
        o = p * PSIZE
        if not (s.pieces[o] or s.pieces[o + 1] or s.pieces[o + 2]):
            return [A.DECLINE]
        g = s.goods
        q = p * GSIZE
        out = [A.PAY_COMM] if g[q + COMM] else []
        out += [A.PAY_SHANK0 + t for t in range(3) if g[q + SH + t]]
        out.append(A.DECLINE)
        return out

    def _pick_actions(self, s: Any, p: int) -> list[int]:
        if s.need <= 0:
            return []
        o = p * PSIZE + COURT
        return [A.PICK0 + t for t in range(3) if s.market[M_BUS + t] and s.pieces[o + t]]

    def _batch_size(self, s: Any, kind: int, mode: int, a: int, b: int) -> int:
        """Returns how many items the first task deals now: its count, at most what is owed and
        what the deck or pile holds."""
        if not is_batch(kind, mode):
            return 1
        shank = kind == K_SHANK or kind == K_CSHANK
        o = SDECK if shank else DPILE
        k = min(b, s.supply[o] + s.supply[o + 1] + s.supply[o + 2])
        if kind == K_SHANK or kind == K_DRUG:
            k = min(k, s.goods[a * GSIZE + (OWE_SH if shank else OWE_DR)])
        return k

    def _can_draw(self, s: Any) -> bool:
        return sum(s.fdeck) + sum(s.fdisc) > 0

    def _turn_actions(self, s: Any, p: int) -> list[int]:
        committed = s.flags & F_COMMITTED
        out = [] if committed else [A.PASS]
        need = s.need if committed else ROUND_CARDS[s.rnd]
        g = s.goods
        o = p * GSIZE
        if need > 0:
            shanks = [A.SHANK0 + t for t in range(3) if g[o + SH + t]]
            if self._can_draw(s):
                out.append(A.DRAW)
            elif committed and not shanks:
                out.append(A.END_TURN)
            out += shanks
        else:
            out.append(A.END_TURN)
        if g[o + CHIPS] and not s.flags & F_BRIBED:
            out += self._bribe_actions(s, p)
        return out

    def _bribe_actions(self, s: Any, p: int) -> list[int]:
        n = self.n
        out = [A.ADD]
        targets = area_targets(s, p, n)
        out += [A.take(h, o, t) for h, o, t in targets]
        f = p * PSIZE + SOL
        out += [A.FREE0 + t for t in range(3) if s.pieces[f + t]]
        g = s.goods
        sup = s.supply
        holders = [q for q in range(n) if q != p and area_pieces(s, q)]
        for gi, (off, width) in enumerate(((SH, 3), (DR, 3), (COMM, 1))):
            who = [q for q in holders if sum(g[q * GSIZE + off : q * GSIZE + off + width])]
            if who:
                out += [A.STEAL0 + q * 3 + gi for q in who]
            else:
                if gi == 0:
                    avail = sum(sup[SDECK : SDECK + 6])
                elif gi == 1:
                    avail = sum(sup[DPILE : DPILE + 6])
                else:
                    avail = sup[SCOMM]
                if avail:
                    out.append(A.STEALSUP0 + gi)
        out += [A.kill(h, o, t) for h, o, t in targets]
        out.sort()
        return out

    def explain_illegal(self, s: State, action: int, player: int) -> str:
        ph = s.phase
        if ph == P_BLOCK:
            if action < A.FIST0:
                return "that block has already been played this year"
            return "the initiator must choose an action block"
        if ph == P_FISTS:
            if A.FIST0 <= action < A.GYM0:
                return "a fist holds only pieces from your cell"
            return "every player is choosing a secret fist"
        if ph == P_GYM:
            return ("the gym takes up to three pieces from your cell; a Tarantula needs a Scorpion and a "
                    "Scorpion a Cobra in your court system")
        if ph == P_CAFE:
            return "buy one item still for sale with one commissary, or buy nothing"
        if ph == P_GUARD:
            return "a bribe chip costs two goods you hold, while chips are left"
        if ph == P_DRUGPAY:
            return "to take part in the Drug fight pay one commissary or one shank card, or decline"
        if ph == P_TURN:
            if A.BRIBE_FIRST <= action <= A.BRIBE_LAST:
                return ("a bribe needs a chip, one per round on your own fighting turn, and a target in the "
                        "fight")
            if action == A.PASS:
                return "once you fight this turn you cannot pass"
            if s.flags & F_COMMITTED and s.need <= 0 and action in (A.DRAW, A.SHANK0, A.SHANK0 + 1, A.SHANK0 + 2):
                return "you have played this round's cards; bribe or end your turn"
            if A.SHANK0 <= action < A.END_TURN and not s.goods[player * GSIZE + SH + action - A.SHANK0]:
                return "you hold no shank card of that type"
            if action == A.END_TURN:
                return "you must first play this round's cards"
            return "you must draw a fight card or play a shank card you hold, as many as the round asks"
        if ph == P_DRAWN:
            return "keep the card you drew or bribe to redraw it"
        if ph in (P_TOSOL, P_PAROLE):
            return "choose one of your own pieces standing in the fight"
        if ph in (P_VIC_DRUG, P_VIC_SHANK):
            return "choose another player who holds one"
        if ph == P_STOLEN:
            return "play the stolen shank now or keep it"
        if ph == P_PICK:
            return "pick a piece still on the bus that your court system still holds"
        return "it is not one of the legal moves now"

    # ---- apply ------------------------------------------------------------------
    def apply(self, s: State, action: int, player: int | None = None) -> State:
        w = _W(s)
        if s.queue:
            self._apply_chance(w, action)
        else:
            self._apply_decision(w, action, player)
        self._run(w)
        return w.freeze()

    def _apply_decision(self, w: _W, a: int, player: int | None) -> None:
        ph = w.phase
        n = self.n
        if ph == P_FISTS:
            w.fists[player] = a - A.FIST0
            return
        if ph == P_BLOCK:
            self._start_block(w, a)
            return
        if ph in _SEQ_PHASES:
            p = (w.initiator + w.pos) % n
            if ph == P_GYM:
                self._gym(w, p, a)
                w.pos += 1
            elif ph == P_CAFE:
                self._cafe(w, p, a)
                w.pos += 1
            elif ph == P_GUARD:
                if a == A.CHIP_DONE:
                    w.pos += 1
                else:
                    i, j = divmod(a - A.CHIP0, 7)
                    self._pay_good(w, p, i)
                    self._pay_good(w, p, j)
                    w.goods[p * GSIZE + CHIPS] += 1
                    w.supply[SCHIPS] -= 1
            else:  # P_DRUGPAY
                if a == A.PAY_COMM:
                    self._pay_good(w, p, 6)
                    w.fists[p] = -1
                elif a != A.DECLINE:
                    self._pay_good(w, p, a - A.PAY_SHANK0)
                    w.fists[p] = -1
                w.pos += 1
            return
        if ph == P_PICK:
            p = w.ranking[w.pos]
            t = a - A.PICK0
            o = p * PSIZE
            w.market[M_BUS + t] -= 1
            w.pieces[o + COURT + t] -= 1
            w.pieces[o + YARD + t] += 1
            w.need -= 1
            return
        p = (w.initiator + 1 + w.pos) % n
        if ph == P_TURN:
            self._turn(w, p, a)
        elif ph == P_DRAWN:
            k = w.pending
            w.pending = -1
            if a == A.KEEP:
                self._resolve(w, p, k)
            else:  # bribe: redraw
                self._spend_chip(w, p)
                cards = w.cards[p]
                w.cards[p] = cards[:-1]
                w.fdisc[k] += 1
                w.need += 1
                w.phase = P_TURN
        elif ph == P_TOSOL:
            self._move_own(w, p, a - A.TOSOL0, SOL)
            w.phase = P_TURN
        elif ph == P_PAROLE:
            self._parole(w, p, a - A.PAROLE0)
            w.phase = P_TURN
        elif ph == P_VIC_DRUG:
            w.queue.append(task(K_STEAL_DRUG, 0, p, a - A.VICDRUG0))
            w.phase = P_TURN
        elif ph == P_VIC_SHANK:
            w.queue.append(task(K_STEAL_SHANK, 1, p, a - A.VICSHANK0))
            w.phase = P_TURN
        elif ph == P_STOLEN:
            t = w.pending
            w.pending = -1
            if a == A.PLAY_STOLEN:
                w.goods[p * GSIZE + SH + t] -= 1
                w.cards[p] = w.cards[p] + (SHANK_CODE0 + t,)
            w.phase = P_TURN

    def _start_block(self, w: _W, b: int) -> None:
        n = self.n
        w.block = b
        w.pos = 0
        if b == GYM_B:
            w.phase = P_GYM
        elif b == CAFE_B:
            w.phase = P_CAFE
            m = w.market
            m[M_BUS] = m[M_BUS + 1] = m[M_BUS + 2] = 1
            m[M_R2] = 1 if CAFE_RESPECT.count(2) else 0
            m[M_R1] = CAFE_RESPECT.count(1)
            w.queue += [task(K_CSHANK, 0, 0, CAFE_SHANKS), task(K_CDRUG, 0, 0, CAFE_DRUGS)]
        elif b == GUARD_B:
            w.phase = P_GUARD
        elif b == DRUG_B:
            w.phase = P_DRUGPAY
            w.fists = [-2] * n
        else:
            w.phase = P_FISTS
            pc = w.pieces
            w.fists = [-1 if pc[p * PSIZE] + pc[p * PSIZE + 1] + pc[p * PSIZE + 2] else -2 for p in range(n)]

    def _gym(self, w: _W, p: int, a: int) -> None:
        x = a - A.GYM0
        t, sc, c = x >> 4, (x >> 2) & 3, x & 3
        pc = w.pieces
        o = p * PSIZE
        # Cobras earn respect and go to the yard.
        pc[o + CELL] -= c
        pc[o + YARD] += c
        w.goods[p * GSIZE + RESPECT] += c
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

    def _cafe(self, w: _W, p: int, a: int) -> None:
        x = a - A.CAFE0
        if x == 11:
            return
        g = p * GSIZE
        w.goods[g + COMM] -= 1
        w.supply[SCOMM] += 1
        m = w.market
        if x < 3:
            m[M_SHANK + x] -= 1
            w.goods[g + SH + x] += 1
        elif x < 6:
            m[M_DRUG + x - 3] -= 1
            w.goods[g + DR + x - 3] += 1
        elif x < 9:
            t = x - 6
            m[M_BUS + t] -= 1
            w.pieces[p * PSIZE + COURT + t] -= 1
            w.pieces[p * PSIZE + YARD + t] += 1
        elif x == 9:
            m[M_R2] = 0
            w.goods[g + RESPECT] += 2
        else:
            m[M_R1] -= 1
            w.goods[g + RESPECT] += 1

    def _pay_good(self, w: _W, p: int, i: int) -> None:
        """Pays good ``i`` (0-2 shank by type, 3-5 drug by colour, 6 commissary) to its discard pile."""
        g = p * GSIZE
        if i < 3:
            w.goods[g + SH + i] -= 1
            w.supply[SDISC + i] += 1
        elif i < 6:
            w.goods[g + DR + i - 3] -= 1
            w.supply[DUSED + i - 3] += 1
        else:
            w.goods[g + COMM] -= 1
            w.supply[SCOMM] += 1

    def _spend_chip(self, w: _W, p: int) -> None:
        w.goods[p * GSIZE + CHIPS] -= 1
        w.supply[SCHIPS] += 1
        if not w.flags & F_COMMITTED:
            w.flags |= F_COMMITTED
            w.need = ROUND_CARDS[w.rnd]
        w.flags |= F_BRIBED

    def _turn(self, w: _W, p: int, a: int) -> None:
        if a == A.PASS:
            w.passed |= 1 << p
            self._end_turn(w)
            return
        if a == A.END_TURN:
            self._end_turn(w)
            return
        if a == A.DRAW or A.SHANK0 <= a < A.END_TURN:
            if not w.flags & F_COMMITTED:
                w.flags |= F_COMMITTED
                w.need = ROUND_CARDS[w.rnd]
            w.need -= 1
            if a == A.DRAW:
                w.queue.append(task(K_FIGHT, 0, p))
            else:
                t = a - A.SHANK0
                w.goods[p * GSIZE + SH + t] -= 1
                w.cards[p] = w.cards[p] + (SHANK_CODE0 + t,)
            return
        # A bribe chip action.
        self._spend_chip(w, p)
        if a == A.ADD:
            w.need += 1
        elif a < A.FREE0:
            x, t = divmod(a - A.TAKE0, 3)
            h, o = divmod(x, A.MAXP)
            self._remove_piece(w, h, o, t)
            if o == p:
                w.pieces[p * PSIZE + FIGHT + t] += 1
            else:
                w.bribed = tuple(sorted(w.bribed + ((p, o, t),)))
        elif a < A.STEAL0:
            self._move_from_sol(w, p, a - A.FREE0)
        elif a < A.STEALSUP0:
            q, gi = divmod(a - A.STEAL0, 3)
            if gi == 0:
                w.queue.append(task(K_STEAL_SHANK, 0, p, q))
            elif gi == 1:
                w.queue.append(task(K_STEAL_DRUG, 0, p, q))
            else:
                w.goods[q * GSIZE + COMM] -= 1
                w.goods[p * GSIZE + COMM] += 1
        elif a < A.KILL0:
            gi = a - A.STEALSUP0
            if gi == 0:
                w.queue.append(task(K_SHANK, 1, p))
            elif gi == 1:
                w.queue.append(task(K_DRUG, 1, p))
            else:
                w.supply[SCOMM] -= 1
                w.goods[p * GSIZE + COMM] += 1
        else:
            x, t = divmod(a - A.KILL0, 3)
            h, o = divmod(x, A.MAXP)
            self._remove_piece(w, h, o, t)

    def _end_turn(self, w: _W) -> None:
        w.pos += 1
        w.flags &= F_GRAVE
        w.need = 0

    def _remove_piece(self, w: _W, h: int, o: int, t: int) -> None:
        if o == h:
            w.pieces[h * PSIZE + FIGHT + t] -= 1
        else:
            b = list(w.bribed)
            b.remove((h, o, t))
            w.bribed = tuple(b)

    def _move_own(self, w: _W, p: int, t: int, zone: int) -> None:
        w.pieces[p * PSIZE + FIGHT + t] -= 1
        w.pieces[p * PSIZE + zone + t] += 1

    def _move_from_sol(self, w: _W, p: int, t: int) -> None:
        w.pieces[p * PSIZE + SOL + t] -= 1
        w.pieces[p * PSIZE + FIGHT + t] += 1

    def _parole(self, w: _W, p: int, t: int) -> None:
        w.pieces[p * PSIZE + FIGHT + t] -= 1  # into the box
        w.goods[p * GSIZE + OWE_COMM] += 1
        self._give_commissary(w, p)

    def _give_commissary(self, w: _W, p: int) -> None:
        g = p * GSIZE
        k = min(w.goods[g + OWE_COMM], w.supply[SCOMM])
        if k:
            w.goods[g + OWE_COMM] -= k
            w.goods[g + COMM] += k
            w.supply[SCOMM] -= k

    def _after_draw(self, w: _W, p: int, k: int) -> None:
        w.cards[p] = w.cards[p] + (k,)
        if k == GRAVE:
            w.flags |= F_GRAVE
        if w.goods[p * GSIZE + CHIPS] and not w.flags & F_BRIBED:
            w.phase = P_DRAWN
            w.pending = k
            return
        self._resolve(w, p, k)

    def _resolve(self, w: _W, p: int, k: int) -> None:
        """Carries out the effect of fight card ``k`` just drawn by ``p`` (Fight and Shank Cards)."""
        w.phase = P_TURN
        if k == GUARD or k == PAROLE:
            f = p * PSIZE + FIGHT
            types = [t for t in range(3) if w.pieces[f + t]]
            if len(types) == 1:
                if k == GUARD:
                    self._move_own(w, p, types[0], SOL)
                else:
                    self._parole(w, p, types[0])
            elif types:
                w.phase = P_TOSOL if k == GUARD else P_PAROLE
        elif k == STEAL_DRUG or k == STEAL_SHANK:
            victims = steal_victims(w, p, DR if k == STEAL_DRUG else SH, self.n)
            if len(victims) > 1:
                w.phase = P_VIC_DRUG if k == STEAL_DRUG else P_VIC_SHANK
            elif k == STEAL_DRUG:
                w.queue.append(task(K_STEAL_DRUG, 0, p, victims[0]) if victims else task(K_DRUG, 1, p))
            else:
                w.queue.append(task(K_STEAL_SHANK, 1, p, victims[0]) if victims else task(K_SHANK, 2, p))

    # ---- chance -------------------------------------------------------------------
    def _apply_chance(self, w: _W, a: int) -> None:
        kind, mode, p, q = split_task(w.queue[0])
        g = w.goods
        if kind == K_INIT:
            w.queue.pop(0)
            w.initiator = a - A.CH_PLAYER0
        elif kind <= K_CDRUG:
            vec, shank = outcome_counts(a)
            k = vec[0] + vec[1] + vec[2]
            w.queue.pop(0)
            deck = SDECK if shank else DPILE
            for i in range(3):
                w.supply[deck + i] -= vec[i]
            if kind == K_CSHANK or kind == K_CDRUG:
                m = M_SHANK if shank else M_DRUG
                for i in range(3):
                    w.market[m + i] += vec[i]
            else:
                o = p * GSIZE + (SH if shank else DR)
                for i in range(3):
                    g[o + i] += vec[i]
                if mode == 0:
                    g[p * GSIZE + (OWE_SH if shank else OWE_DR)] -= k
                elif mode == 2:
                    w.phase = P_STOLEN
                    w.pending = vec.index(1)
            if is_batch(kind, mode) and q > k:
                # The rest of the batch waits at the head of the queue (after a reshuffle, or dropped).
                w.queue.insert(0, task(kind, mode, p, q - k))
        elif kind == K_STEAL_SHANK or kind == K_STEAL_DRUG:
            w.queue.pop(0)
            vec, shank = outcome_counts(a)
            t = vec.index(1)
            off = SH if shank else DR
            g[q * GSIZE + off + t] -= 1
            g[p * GSIZE + off + t] += 1
            if kind == K_STEAL_SHANK and mode == 1:
                w.phase = P_STOLEN
                w.pending = t
        else:  # K_FIGHT
            w.queue.pop(0)
            k = a - A.CH_CARD0
            w.fdeck[k] -= 1
            self._after_draw(w, p, k)

    def _queue_ready(self, w: _W) -> bool:
        """Makes the first task drawable (reshuffling a discard pile into an empty deck) or
        drops it when nothing can be drawn; returns True when a chance node waits."""
        kind, mode, p, q = split_task(w.queue[0])
        sup = w.supply
        if kind == K_INIT:
            return True
        if kind in (K_SHANK, K_CSHANK, K_DRUG, K_CDRUG):
            deck = SDECK if kind in (K_SHANK, K_CSHANK) else DPILE
            disc = SDISC if deck == SDECK else DUSED
            owe = OWE_SH if deck == SDECK else OWE_DR
            if (kind == K_SHANK or kind == K_DRUG) and mode == 0 and w.goods[p * GSIZE + owe] <= 0:
                w.queue.pop(0)
                return False
            if not (sup[deck] + sup[deck + 1] + sup[deck + 2]):
                for i in range(3):
                    sup[deck + i] += sup[disc + i]
                    sup[disc + i] = 0
            if sup[deck] + sup[deck + 1] + sup[deck + 2]:
                return True
        elif kind == K_FIGHT:
            if not sum(w.fdeck):
                for i in range(NUM_KINDS):
                    w.fdeck[i] += w.fdisc[i]
                    w.fdisc[i] = 0
            if sum(w.fdeck):
                return True
        else:
            off = SH if kind == K_STEAL_SHANK else DR
            o = q * GSIZE + off
            if w.goods[o] + w.goods[o + 1] + w.goods[o + 2]:
                return True
        w.queue.pop(0)
        return False

    # ---- the automatic steps ------------------------------------------------------
    def _run(self, w: _W) -> None:
        """Advances through everything automatic until a decision or chance node waits."""
        n = self.n
        while True:
            if w.queue:
                if self._queue_ready(w):
                    return
                continue
            ph = w.phase
            if ph == P_TURN:
                if not w.inflight & ~w.passed:
                    w.phase = P_SCORE
                    continue
                if w.pos >= n:
                    if w.rnd >= 3:
                        w.phase = P_SCORE
                    else:
                        w.rnd += 1
                        w.pos = 0
                    continue
                p = (w.initiator + 1 + w.pos) % n
                if not w.inflight >> p & 1 or w.passed >> p & 1:
                    w.pos += 1
                    continue
                if w.flags & F_COMMITTED:
                    bribe = w.goods[p * GSIZE + CHIPS] and not w.flags & F_BRIBED
                    if not bribe:
                        if w.need <= 0:
                            self._end_turn(w)
                            continue
                        if not self._can_draw(w) and not sum(w.goods[p * GSIZE + SH : p * GSIZE + SH + 3]):
                            self._end_turn(w)
                            continue
                return
            if ph in _SEQ_PHASES:
                if w.pos >= n:
                    if ph == P_DRUGPAY:
                        w.phase = P_FISTS
                        w.pos = 0
                    else:
                        w.phase = P_CLEANUP
                    continue
                p = (w.initiator + w.pos) % n
                if len(self._seq_options(w, p, ph)) > 1:
                    return
                w.pos += 1
                continue
            if ph == P_FISTS:
                if -1 in w.fists:
                    return
                self._reveal(w)
                continue
            if ph == P_SCORE:
                self._score(w)
                continue
            if ph == P_PICK:
                while w.pos < len(w.ranking):
                    if self._pick_actions(w, w.ranking[w.pos]):
                        return
                    w.pos += 1
                    w.need = PAYOUT[w.pos] if w.pos < len(PAYOUT) else 0
                w.phase = P_CLEANUP
                continue
            if ph == P_CLEANUP:
                self._cleanup(w)
                continue
            return

    def _seq_options(self, w: Any, p: int, ph: int) -> list[int]:
        if ph == P_GYM:
            return self._gym_actions(w, p)
        if ph == P_CAFE:
            return self._cafe_actions(w, p)
        if ph == P_GUARD:
            return self._guard_actions(w, p)
        return self._pay_actions(w, p)

    def _reveal(self, w: _W) -> None:
        """All fists open together; the chosen pieces stand in the fight areas."""
        pc = w.pieces
        inflight = 0
        for p, f in enumerate(w.fists):
            if f > 0:
                o = p * PSIZE
                c, sc, t = A.fist_counts(f)
                pc[o] -= c
                pc[o + 1] -= sc
                pc[o + 2] -= t
                pc[o + FIGHT] += c
                pc[o + FIGHT + 1] += sc
                pc[o + FIGHT + 2] += t
                inflight |= 1 << p
        w.fists = []
        w.inflight = inflight
        w.passed = 0
        w.rnd = 1
        w.pos = 0
        w.need = 0
        w.flags = 0
        w.phase = P_TURN

    def ranking(self, s: Any) -> list[int]:
        """Returns the placed players of the fight in ``s``, strongest first (Scoring Fight):
        players in the fight with any strength, by ``fight_key``, then initiating order."""
        n = self.n
        ini = s.initiator
        keys = []
        for p in range(n):
            if s.inflight >> p & 1:
                st = strength(s, p)
                if max(st):
                    keys.append((fight_key(st, s.block), -((p - ini) % n), p))
        keys.sort(reverse=True)
        return [k[2] for k in keys]

    def _score(self, w: _W) -> None:
        placers = self.ranking(w)
        g = w.goods
        b = w.block
        w.phase = P_CLEANUP
        w.ranking = tuple(placers[: len(PAYOUT)])
        if not placers:
            return
        if b == RIOT:
            g[placers[0] * GSIZE + FP] += FP_RIOT
            return
        g[placers[0] * GSIZE + FP] += FP_FIRST
        if b == NEW_B:
            w.phase = P_PICK
            w.pos = 0
            w.need = PAYOUT[0]
            m = w.market
            m[M_BUS] = m[M_BUS + 1] = m[M_BUS + 2] = 2
            return
        for i, p in enumerate(placers[: len(PAYOUT)]):
            k = PAYOUT[i]
            if b == COMM_B:
                g[p * GSIZE + OWE_COMM] += k
                self._give_commissary(w, p)
            elif b == SHANK_B:
                g[p * GSIZE + OWE_SH] += k
                w.queue.append(task(K_SHANK, 0, p, k))
            else:  # DRUG_B
                g[p * GSIZE + OWE_DR] += k
                w.queue.append(task(K_DRUG, 0, p, k))

    def _cleanup(self, w: _W) -> None:
        """Collect and clean: pieces to the yard, cards to their discards, the Grave's reshuffle."""
        n = self.n
        pc = w.pieces
        for p in range(n):
            o = p * PSIZE
            for t in range(3):
                pc[o + YARD + t] += pc[o + FIGHT + t]
                pc[o + FIGHT + t] = 0
            for code in w.cards[p]:
                if code >= SHANK_CODE0:
                    w.supply[SDISC + code - SHANK_CODE0] += 1
                else:
                    w.fdisc[code] += 1
        for _h, o, t in w.bribed:
            pc[o * PSIZE + YARD + t] += 1
        w.bribed = ()
        w.cards = [()] * n
        if w.flags & F_GRAVE:
            for i in range(NUM_KINDS):
                w.fdeck[i] += w.fdisc[i]
                w.fdisc[i] = 0
        if w.block == CAFE_B:
            # Unsold face-up goods go back into their deck and pile (ruling SQK-11).
            m = w.market
            for i in range(3):
                w.supply[SDECK + i] += m[M_SHANK + i]
                w.supply[DPILE + i] += m[M_DRUG + i]
        w.market = [0] * 11
        w.fists = []
        w.inflight = w.passed = 0
        w.rnd = w.pos = w.need = w.flags = 0
        w.pending = -1
        w.ranking = ()
        if w.block == RIOT:
            for p in range(n):
                o = p * PSIZE
                for t in range(3):
                    pc[o + CELL + t] += pc[o + YARD + t] + pc[o + SOL + t]
                    pc[o + YARD + t] = pc[o + SOL + t] = 0
            w.block = -1
            self._deliver(w)
            w.phase = P_END
            return
        self._deliver(w)
        w.used |= 1 << w.block
        w.block = -1
        w.initiator = (w.initiator + 1) % n
        w.phase = P_BLOCK
        if w.used == ALL_BLOCKS:
            self._end_year(w)
            self._deliver(w)

    def _deliver(self, w: _W) -> None:
        """Owed goods arrive when the supply has them, from the initiator clockwise."""
        sup = w.supply
        g = w.goods
        shanks = sum(sup[SDECK : SDECK + 6])
        drugs = sum(sup[DPILE : DPILE + 6])
        for p in self._order[w.initiator]:
            o = p * GSIZE
            self._give_commissary(w, p)
            k = min(g[o + OWE_SH], shanks)
            shanks -= k
            while k > 0:
                w.queue.append(task(K_SHANK, 0, p, min(k, BATCH)))
                k -= BATCH
            k = min(g[o + OWE_DR], drugs)
            drugs -= k
            while k > 0:
                w.queue.append(task(K_DRUG, 0, p, min(k, BATCH)))
                k -= BATCH

    def _end_year(self, w: _W) -> None:
        n = self.n
        pc = w.pieces
        g = w.goods
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
        sup = w.supply
        for i in range(3):
            sup[SDECK + i] += sup[SDISC + i]
            sup[SDISC + i] = 0
            sup[DPILE + i] += sup[DUSED + i]
            sup[DUSED + i] = 0
        w.year += 1
        w.used = 0
        if w.year <= YEARS:
            for p in self._order[w.initiator]:
                o = p * PSIZE
                q = p * GSIZE
                g[q + OWE_COMM] += BONUS_AMOUNT if pc[o + CELL + 2] >= BONUS_THRESHOLD else YEAR_COMMISSARY
                g[q + OWE_SH] += BONUS_AMOUNT if pc[o + CELL + 1] >= BONUS_THRESHOLD else YEAR_SHANKS
            w.phase = P_BLOCK
            return
        # The riot: the fewest fight points initiates (ties: first clockwise from the disc).
        fps = [g[p * GSIZE + FP] for p in range(n)]
        low = min(fps)
        w.initiator = next(p for p in self._order[w.initiator] if fps[p] == low)
        inflight = 0
        for p in range(n):
            o = p * PSIZE
            for t in range(3):
                pc[o + FIGHT + t] = pc[o + CELL + t]
                pc[o + CELL + t] = 0
            if pc[o + FIGHT] + pc[o + FIGHT + 1] + pc[o + FIGHT + 2]:
                inflight |= 1 << p
        w.block = RIOT
        w.inflight = inflight
        w.passed = 0
        w.rnd = 1
        w.pos = 0
        w.need = 0
        w.flags = 0
        w.phase = P_TURN

    # ---- the end ------------------------------------------------------------------
    def score_breakdown(self, s: Any) -> list[dict[str, int]]:
        """Returns each player's respect by source (End Game Scoring)."""
        n = self.n
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

    def scores(self, s: Any) -> list[int]:
        return [d["total"] for d in self.score_breakdown(s)]

    def winners(self, s: Any) -> tuple[int, ...]:
        """Returns the winners: most respect, then most fight points (ruling SQK-20); the rest share."""
        sc = self.scores(s)
        keys = [(sc[p], s.goods[p * GSIZE + FP]) for p in range(self.n)]
        best = max(keys)
        return tuple(p for p in range(self.n) if keys[p] == best)

    def returns(self, s: State) -> tuple[float, ...]:
        if s.phase != P_END or s.queue:
            return (0.0,) * self.n
        w = self.winners(s)
        share = 1.0 / len(w)
        return tuple(share if p in w else 0.0 for p in range(self.n))

    # ---- information ------------------------------------------------------------
    def view(self, s: State, player: int | None) -> dict:
        from .view import view

        return view(self, s, player)

    def sample_hidden(self, s: State, player: int | None, rng: random.Random) -> State:
        from .view import sample_hidden

        return sample_hidden(self, s, player, rng)

    def observe_action(self, s: State, action: int, player: int | None, observer: int | None) -> str | None:
        from .view import observe_action

        return observe_action(self, s, action, player, observer)

    # ---- notation ---------------------------------------------------------------
    def action_to_str(self, s: State, action: int) -> str:
        return A.to_str(action)

    def parse_action(self, s: State, text: str, player: int | None = None) -> int:
        action = A.parse(text)
        if action is None:
            raise InvalidActionError(
                f"{text!r} is not a move of {self.name}; {self._accepted_text(s, player)}", text=text
            )
        return action

    # ---- bots ---------------------------------------------------------------------
    def heuristic_action(self, s: State, player: int, rng: random.Random) -> int:
        from .bot import heuristic_action

        return heuristic_action(self, s, player, rng)

    # ---- JSON (faster than the generic encoder; same format) -----------------------
    def to_json(self, s: State) -> dict:
        return {
            "game": self.id,
            "state": {
                "phase": s.phase, "year": s.year, "initiator": s.initiator, "used": s.used,
                "block": s.block, "pos": s.pos, "rnd": s.rnd, "need": s.need, "flags": s.flags,
                "pending": s.pending, "pieces": list(s.pieces), "goods": list(s.goods),
                "supply": list(s.supply), "fdeck": list(s.fdeck), "fdisc": list(s.fdisc),
                "cards": [list(c) for c in s.cards], "bribed": [list(b) for b in s.bribed],
                "fists": list(s.fists), "inflight": s.inflight, "passed": s.passed,
                "market": list(s.market), "ranking": list(s.ranking), "queue": list(s.queue),
            },
        }

    def from_json(self, data: Any) -> State:
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError as e:
                raise InvalidStateError(f"state JSON does not parse: {e}") from None
        if not isinstance(data, dict) or data.get("game") != self.id or not isinstance(data.get("state"), dict):
            raise InvalidStateError(f"not a {self.id} state: expected {{'game': {self.id!r}, 'state': {{...}}}}")
        body = data["state"]
        if set(body) != set(_FIELDS):
            missing = [f for f in _FIELDS if f not in body]
            extra = [k for k in body if k not in _FIELDS]
            raise InvalidStateError(
                f"{self.id} state fields wrong: missing {missing}, unknown {extra}; expected {list(_FIELDS)}"
            )
        args = []
        for f in _FIELDS:
            v = body[f]
            if f in _NESTED:
                if not isinstance(v, list) or not all(isinstance(x, list) and _ints(x) for x in v):
                    raise InvalidStateError(f"{self.id} state field {f} must be a list of lists of ints")
                args.append(tuple(tuple(x) for x in v))
            elif f in _FLAT:
                if not isinstance(v, list) or not _ints(v):
                    raise InvalidStateError(f"{self.id} state field {f} must be a list of ints")
                args.append(tuple(v))
            else:
                if type(v) is not int:
                    raise InvalidStateError(f"{self.id} state field {f} must be an int")
                args.append(v)
        s = State(*args)
        try:
            self.validate_state(s)
        except InvalidStateError:
            raise
        except (TypeError, ValueError, IndexError, KeyError) as e:
            raise InvalidStateError(f"{self.id} state is not valid: {e}") from None
        return s

    # ---- checks -------------------------------------------------------------------
    def validate_state(self, s: State) -> None:
        n = self.n
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
            if s.fdeck[k] + s.fdisc[k] + cards[k] != self.deck0[k]:
                raise InvalidStateError(f"fight cards of kind {k} do not add up")
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
            if s.phase in _FIGHT_PHASES and s.pos >= n:
                raise InvalidStateError("a fight turn needs a player")
            if s.phase in _SEQ_PHASES and s.pos >= n:
                raise InvalidStateError("a payment or block turn needs a player")
            if s.phase in (P_DRAWN, P_STOLEN) and not 0 <= s.pending < (NUM_KINDS if s.phase == P_DRAWN else 3):
                raise InvalidStateError("the pending card is out of range")
            if s.phase not in (P_BLOCK, P_GYM, P_CAFE, P_GUARD, P_DRUGPAY, P_FISTS, P_PICK) and s.phase not in _FIGHT_PHASES:
                raise InvalidStateError(f"phase {s.phase} does not wait for a decision")


def _ints(v: list) -> bool:
    return not v or set(map(type, v)) == {int}


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
