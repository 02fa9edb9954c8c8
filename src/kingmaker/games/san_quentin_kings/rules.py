"""San Quentin Kings rules: whose turn it is, what they may do, and the flow of a game.

Rulebook: ``src/kingmaker/rulebooks/san-quentin-kings.txt`` (sections quoted in the tests).
Rulings: ``docs/rulings/san-quentin-kings.md`` (SQK-1 ... ).

A game is three years of seven actions, then the riot. One action as a chain
of nodes::

    BLOCK   the initiator chooses an unplayed block                      (blocks.py)
    non-fight blocks, one turn each from the initiator clockwise:        (blocks.py)
      GYM (one action: the pieces trained), CAFE (buy one item or nothing),
      GUARD (buy one chip at a time, then "done buying")
    fight blocks:                                                         (fight.py)
      DRUGPAY  (Drug block only) each player from the initiator pays or declines
      FISTS    SIMULTANEOUS: every eligible player commits one fist; revealed together
      TURN     rounds 1-3, from the initiator's left, ending with the initiator:
               pass / draw / shank / bribe ... / end turn (bribes.py); a drawn card may open
               DRAWN (keep or bribe-redraw), TOSOL / PAROLE (which piece),
               VIC_DRUG / VIC_SHANK (which victim), STOLEN (play the stolen shank)
      scoring; PICK (new arrivals: 1st picks 3, 2nd 2, 3rd 1 from the bus)
    collect and clean (automatic, here), the initiator disc moves clockwise;
    after seven actions the end of the year (automatic, scoring.py); then the riot (riot.py).

Every random event is a chance node taken from a queue of *tasks* (tasks.py: deal a
shank card, a drug chip, a fight card; steal one at random; the starting
initiator). Nothing shuffled is stored: only counts.

Functions here take the game object first where they need its player count
(``game.n``) or its fight deck (``game.deck0``); ``game.py`` composes them.
"""

from __future__ import annotations

from typing import Any

from ...core.api import CHANCE, SIMULTANEOUS, TERMINAL, Game
from ...core.errors import InvalidActionError
from . import actions as A
from .blocks import apply_seq, blocks_left, seq_choice, seq_options, start_block
from .data import (
    ACTIVE_PER_TYPE,
    ALL_BLOCKS,
    CAFE_B,
    CHIPS_PER_PLAYER,
    COMMISSARY,
    DRUG_COUNTS,
    GUARD,
    NUM_KINDS,
    PAYOUT,
    PIECES_PER_TYPE,
    RIOT,
    SHANK_CODE0,
    SHANKS_PER_TYPE,
    START_CHIPS,
    START_COMMISSARY,
    START_SHANKS,
)
from .fight import (
    _DRAW_TASK,
    ALL_FISTS,
    after_draw,
    can_draw,
    card_choice,
    card_choice_actions,
    pick,
    pick_actions,
    reveal,
    score,
    turn,
    turn_actions,
)
from .recall import blank, from_deck, into_deck, stolen
from .riot import gather_after_riot
from .scoring import deliver, end_year
from .state import (
    CHIPS,
    DPILE,
    DR,
    DUSED,
    F_BRIBED,
    F_COMMITTED,
    F_GRAVE,
    FIGHT,
    FIGHT_PHASES,
    GSIZE,
    M_DRUG,
    M_SHANK,
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
    SDECK,
    SDISC,
    SEQ_PHASES,
    SH,
    YARD,
    State,
    Work,
)
from .tasks import (
    K_CDRUG,
    K_CSHANK,
    K_DRUG,
    K_FIGHT,
    K_INIT,
    K_SHANK,
    K_STEAL_SHANK,
    SPLIT,
    deal_outcomes,
    is_batch,
    outcome_counts,
    task,
)


def max_game_length(n: int) -> int:
    """Returns a bound on the actions of a game (chance included).

    Set-up: 1 + n chance. Each of the 21 actions: 1 block choice; gym/cafeteria
    n + 6 chance; guard influence at most 2n chips (all there are) + n "done";
    a fight: n payments + n fists + 3 rounds x n turns, a turn being at most 1
    start + 4 draws (2 cards, 1 extra by bribe, 1 redraw), each draw with its
    chance node, keep/redraw, a piece or victim choice, a steal's chance node and
    playing the stolen shank (7), 2 for the bribe and 1 to end = 32; then 6
    payouts. Deliveries of owed goods and year-end handouts: at most every shank
    and drug there is each year (21 + 28) plus the handouts (4n) per year. The
    riot is one more fight.
    """
    fight = 2 * n + 3 * n * 32 + 6
    return 1 + n + 21 * (1 + max(fight, 3 * n + 6)) + 4 * (49 + 4 * n) + fight + 49


# ---- set-up -----------------------------------------------------------------------------
def new_initial_state(n: int, deck0: tuple[int, ...]) -> State:
    """Returns the state after Set-up, waiting for the chance nodes of the initiator and the shank cards."""
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
        P_BLOCK, 1, 0, 0, -1, 0, 0, 0, 0, -1, pieces, goods, supply, deck0,
        (0,) * NUM_KINDS, ((),) * n, (), (), 0, 0, (0,) * 11, (), queue, blank(n),
    )


# ---- whose turn ---------------------------------------------------------------------------
def current_player(s: State, n: int) -> int:
    if s.queue:
        return CHANCE
    ph = s.phase
    if ph in FIGHT_PHASES:
        return (s.initiator + 1 + s.pos) % n
    if ph == P_BLOCK:
        return s.initiator
    if ph in SEQ_PHASES:
        return (s.initiator + s.pos) % n
    if ph == P_FISTS:
        return SIMULTANEOUS
    if ph == P_PICK:
        return s.ranking[s.pos]
    return TERMINAL


def simultaneous_players(s: State) -> tuple[int, ...]:
    if s.queue or s.phase != P_FISTS:
        return ()
    return tuple(p for p, f in enumerate(s.fists) if f == -1)


# ---- chance -------------------------------------------------------------------------------
def game_chance_outcomes(game: Any, s: State) -> list[tuple[int, float]]:
    """``SanQuentinKings.chance_outcomes`` (the game's method itself, so that the search calls no
    wrapper): ``chance_outcomes``, and the base class's error away from a chance node."""
    q = s.queue
    if not q:
        return Game.chance_outcomes(game, s)
    if SPLIT[q[0]][0] == K_FIGHT:
        counts = s.fdeck
        total = sum(counts)
        return [(o, c / total) for o, c in zip(_CARD_OUTCOMES, counts) if c]
    return chance_outcomes(s, game.n)


def chance_outcomes(s: State, n: int) -> list[tuple[int, float]]:
    """Returns the outcomes of the first task in the queue (a fresh list; the outcomes of a shank
    deck, drug pile or hand are computed once per content and kept in ``_OUTCOMES``; the fight
    deck's, which seldom repeat, are computed each time)."""
    kind, mode, a, b = SPLIT[s.queue[0]]
    if kind == K_FIGHT:
        counts = s.fdeck
        total = sum(counts)
        return [(_CARD_OUTCOMES[k], c / total) for k, c in enumerate(counts) if c]
    if kind == K_INIT:
        return [(A.CH_PLAYER0 + p, 1.0 / n) for p in range(n)]
    if kind <= K_CDRUG:
        if kind == K_SHANK or kind == K_CSHANK:
            counts, single, multi = s.supply[SDECK : SDECK + 3], A.CH_SHANK0, A.CH_SHANKS0
        else:
            counts, single, multi = s.supply[DPILE : DPILE + 3], A.CH_DRUG0, A.CH_DRUGS0
        k = batch_size(s, kind, mode, a, b)
        key = (counts, k, single)
        out = _OUTCOMES.get(key)
        if out is None:
            out = _remember(key, deal_outcomes(counts, k, single, multi))
        return list(out)
    if kind == K_STEAL_SHANK:
        g = b * GSIZE + SH
        counts, base = s.goods[g : g + 3], A.CH_SHANK0
    else:  # K_STEAL_DRUG
        g = b * GSIZE + DR
        counts, base = s.goods[g : g + 3], A.CH_DRUG0
    key = (counts, base)
    out = _OUTCOMES.get(key)
    if out is None:
        total = sum(counts)
        out = _remember(key, [(base + k, c / total) for k, c in enumerate(counts) if c])
    return list(out)


_CARD_OUTCOMES = tuple(A.CH_CARD0 + k for k in range(NUM_KINDS))  # fight card kind k's outcome
_CH_CARD0, _CH_PLAYER0, _DRAW = A.CH_CARD0, A.CH_PLAYER0, A.DRAW  # read by game_apply

# The outcomes of a deck or pile by its content (a cache: a pile's content decides them).
_OUTCOMES: dict[tuple, tuple[tuple[int, float], ...]] = {}


def _remember(key: tuple, out: list[tuple[int, float]]) -> tuple[tuple[int, float], ...]:
    if len(_OUTCOMES) > 100_000:
        _OUTCOMES.clear()
    t = _OUTCOMES[key] = tuple(out)
    return t


def batch_size(s: Any, kind: int, mode: int, a: int, b: int) -> int:
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


def apply_chance(w: Work, a: int) -> None:
    """Carries out chance outcome ``a`` of the first task."""
    kind, mode, p, q = SPLIT[w.queue[0]]
    w.queue = w.queue[1:]
    if kind == K_FIGHT:
        k = a - A.CH_CARD0
        fd = w.fdeck
        w.fdeck = (*fd[:k], fd[k] - 1, *fd[k + 1 :])
        after_draw(w, p, k)
    elif kind == K_INIT:
        w.initiator = a - A.CH_PLAYER0
    elif kind <= K_CDRUG:
        vec, shank = outcome_counts(a)
        k = vec[0] + vec[1] + vec[2]
        deck = SDECK if shank else DPILE
        sup = w.mut_supply()
        for i in range(3):
            sup[deck + i] -= vec[i]
        from_deck(w, 0 if shank else 3, vec, kind == K_CSHANK or kind == K_CDRUG, len(w.cards))
        if kind == K_CSHANK or kind == K_CDRUG:
            m = M_SHANK if shank else M_DRUG
            market = list(w.market)
            for i in range(3):
                market[m + i] += vec[i]
            w.market = tuple(market)
        else:
            g = w.mut_goods()
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
            w.queue = (task(kind, mode, p, q - k), *w.queue)
    else:  # K_STEAL_SHANK, K_STEAL_DRUG
        vec, shank = outcome_counts(a)
        t = vec.index(1)
        off = SH if shank else DR
        g = w.mut_goods()
        g[q * GSIZE + off + t] -= 1
        g[p * GSIZE + off + t] += 1
        stolen(w, p, q, t if shank else 3 + t, len(w.cards))
        if kind == K_STEAL_SHANK and mode == 1:
            w.phase = P_STOLEN
            w.pending = t + 3 * (q + 1)  # the victim saw the card too


_DRAW_TASKS = frozenset(t for t, split in enumerate(SPLIT) if split[0] == K_FIGHT)  # the fight draws


def queue_ready(w: Work) -> bool:
    """Makes the first task drawable (reshuffling a discard pile into an empty deck) or
    drops it when nothing can be drawn; returns True when a chance node waits."""
    kind, mode, p, q = SPLIT[w.queue[0]]
    if kind == K_FIGHT:
        if sum(w.fdeck):
            return True
        w.fdeck, w.fdisc = w.fdisc, (0,) * NUM_KINDS  # the deck is empty: its discards become it
        if sum(w.fdeck):
            return True
        w.queue = w.queue[1:]
        return False
    if kind == K_INIT:
        return True
    if kind in (K_SHANK, K_CSHANK, K_DRUG, K_CDRUG):
        deck = SDECK if kind in (K_SHANK, K_CSHANK) else DPILE
        disc = SDISC if deck == SDECK else DUSED
        owe = OWE_SH if deck == SDECK else OWE_DR
        if (kind == K_SHANK or kind == K_DRUG) and mode == 0 and w.goods[p * GSIZE + owe] <= 0:
            w.queue = w.queue[1:]
            return False
        sup = w.supply
        if not (sup[deck] + sup[deck + 1] + sup[deck + 2]):
            sup = w.mut_supply()
            into_deck(w, 0 if deck == SDECK else 3, sup[disc : disc + 3], len(w.cards))
            for i in range(3):
                sup[deck + i] += sup[disc + i]
                sup[disc + i] = 0
        if sup[deck] + sup[deck + 1] + sup[deck + 2]:
            return True
    else:
        off = SH if kind == K_STEAL_SHANK else DR
        o = q * GSIZE + off
        if w.goods[o] + w.goods[o + 1] + w.goods[o + 2]:
            return True
    w.queue = w.queue[1:]
    return False


def check_action(s: State, a: Any, n: int) -> None:
    """Raises InvalidActionError for an action outside 0..CH_PLAYER0-1 at a decision node, or a
    chance outcome not offered at a chance node (cheap: no list of outcomes is built)."""
    if type(a) is not int:
        raise InvalidActionError(f"an action is an int, not {type(a).__name__}", text=repr(a)[:40])
    if not s.queue:
        if not 0 <= a < A.CH_PLAYER0:
            raise InvalidActionError(f"action {a} is outside 0..{A.CH_PLAYER0 - 1}", text=str(a))
        return
    if not _offered(s, a, n):
        raise InvalidActionError(f"{a} is not a chance outcome offered here", text=str(a))


def _offered(s: State, a: int, n: int) -> bool:
    kind, mode, p, b = SPLIT[s.queue[0]]
    if kind == K_FIGHT:
        t = a - A.CH_CARD0
        return 0 <= t < NUM_KINDS and s.fdeck[t] > 0
    if kind == K_INIT:
        return A.CH_PLAYER0 <= a < A.CH_PLAYER0 + n
    if kind <= K_CDRUG:
        shank = kind == K_SHANK or kind == K_CSHANK
        o = SDECK if shank else DPILE
        counts = s.supply[o : o + 3]
        k = batch_size(s, kind, mode, p, b)
        if k == 1:
            t = a - (A.CH_SHANK0 if shank else A.CH_DRUG0)
            return 0 <= t < 3 and counts[t] > 0
        x = a - (A.CH_SHANKS0 if shank else A.CH_DRUGS0)
        if not 0 <= x < 64:
            return False
        vec = (x >> 4, (x >> 2) & 3, x & 3)
        return vec[0] + vec[1] + vec[2] == k and all(vec[i] <= counts[i] for i in range(3))
    shank = kind == K_STEAL_SHANK
    t = a - (A.CH_SHANK0 if shank else A.CH_DRUG0)
    return 0 <= t < 3 and s.goods[b * GSIZE + (SH if shank else DR) + t] > 0


# ---- legal actions ------------------------------------------------------------------------
def legal_actions(s: State, player: int | None, n: int) -> list[int]:
    if s.queue:
        return [x[0] for x in chance_outcomes(s, n)] if player is None else []
    ph = s.phase
    if ph == P_FISTS:
        if player is None or not 0 <= player < n or s.fists[player] != -1:
            return []
        o = player * PSIZE
        pc = s.pieces
        return list(ALL_FISTS[pc[o] * 64 + pc[o + 1] * 8 + pc[o + 2]])
    cp = current_player(s, n)
    if cp < 0 or (player is not None and player != cp):
        return []
    if ph == P_TURN:
        return turn_actions(s, cp, n)
    if ph == P_BLOCK:
        return blocks_left(s)
    if ph in SEQ_PHASES:
        return seq_options(s, cp, ph)
    if ph == P_PICK:
        return pick_actions(s, cp)
    if ph in FIGHT_PHASES:
        return card_choice_actions(s, cp, ph, n)
    return []


def explain_illegal(s: State, action: int, player: int) -> str:
    """Returns why ``action`` is not legal for ``player`` in ``s`` (a short phrase)."""
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
        return "choose another player in this fight who holds one"
    if ph == P_STOLEN:
        return "play the stolen shank now or keep it"
    if ph == P_PICK:
        return "pick a piece still on the bus that your court system still holds"
    return "it is not one of the legal moves now"


# ---- apply --------------------------------------------------------------------------------
def apply(s: State, action: int, player: int | None, n: int, trace: list | None = None) -> State:
    """Returns the state after ``action`` (unchecked), run on to the next decision or chance node.

    ``trace``, when given, receives the automatic steps that followed, for the log (view.py):
    ("fists", fists) at the reveal, ("placed", block, placings) at a fight's scoring, ("year", year)
    at the end of a year, ("riot", initiator) when the riot begins, ("end",) at the end.
    """
    w = Work(s)
    if s.queue:
        apply_chance(w, action)
    else:
        _decide(w, action, player, n)
    run(w, n, trace)
    return w.freeze()


def _decide(w: Work, action: int, player: int | None, n: int) -> None:
    """Plays a player's ``action`` on the working copy ``w`` (no chance node pending)."""
    ph = w.phase
    if ph == P_TURN:
        turn(w, (w.initiator + 1 + w.pos) % n, action)
    elif ph == P_FISTS:
        w.put_fist(player, action - A.FIST0)
    elif ph == P_BLOCK:
        start_block(w, action, n)
    elif ph in SEQ_PHASES:
        apply_seq(w, (w.initiator + w.pos) % n, action, ph)
    elif ph == P_PICK:
        pick(w, action)
    else:
        card_choice(w, (w.initiator + 1 + w.pos) % n, action, ph)


def game_apply(game: Any, s: State, action: int, player: int | None = None) -> State:
    """``SanQuentinKings.apply`` (the game's method itself, so that the search calls no wrapper):
    ``check_action``, then ``apply`` without a trace. A fight card's draw, the commonest chance
    node, is checked and laid here directly (as ``_offered`` and ``apply_chance`` do it)."""
    n = game.n
    q = s.queue
    if q:
        if type(action) is int:
            kind, _mode, p, _b = SPLIT[q[0]]
            if kind == K_FIGHT:
                k = action - _CH_CARD0
                fd = s.fdeck
                if 0 <= k < NUM_KINDS and fd[k] > 0:
                    w = Work(s)
                    w.queue = q[1:]
                    w.fdeck = (*fd[:k], fd[k] - 1, *fd[k + 1 :])
                    if k < GUARD and not (s.goods[p * GSIZE + CHIPS] and not s.flags & F_BRIBED):
                        # after_draw of a card with no effect and no redraw bribe: laid, the turn goes on
                        c = s.cards
                        w.cards = (*c[:p], c[p] + (k,), *c[p + 1 :])
                        w.phase = P_TURN
                    else:
                        after_draw(w, p, k)
                    run(w, n)
                    return w.freeze()
        check_action(s, action, n)
        w = Work(s)
        apply_chance(w, action)
    else:
        if type(action) is not int or not 0 <= action < _CH_PLAYER0:
            check_action(s, action, n)
        w = Work(s)
        if action == _DRAW and w.phase == P_TURN and w.flags & F_COMMITTED:  # turn(): a committed player draws again
            w.need -= 1
            w.queue = (*w.queue, _DRAW_TASK[(w.initiator + 1 + w.pos) % n])
        else:
            _decide(w, action, player, n)
    run(w, n)
    return w.freeze()


# ---- the automatic steps ------------------------------------------------------------------
def run(w: Work, n: int, trace: list | None = None) -> None:
    """Advances through everything automatic until a decision or chance node waits."""
    while True:
        q = w.queue
        if q:
            if q[0] in _DRAW_TASKS and sum(w.fdeck):  # queue_ready's first case
                return
            if queue_ready(w):
                return
            continue
        ph = w.phase
        if ph == P_TURN:
            live = w.inflight & ~w.passed  # in the fight and not passed
            if not live:
                w.phase = P_SCORE
                continue
            pos = w.pos
            if pos >= n:
                if w.rnd >= 3:
                    w.phase = P_SCORE
                else:
                    w.rnd += 1
                    w.pos = 0
                continue
            p = (w.initiator + 1 + pos) % n
            if not live >> p & 1:
                w.pos = pos + 1
                continue
            flags = w.flags
            if flags & F_COMMITTED:
                bribe = w.goods[p * GSIZE + CHIPS] and not flags & F_BRIBED
                if not bribe:
                    if w.need <= 0:
                        w.pos += 1  # end_turn(w)
                        w.flags &= F_GRAVE
                        w.need = 0
                        continue
                    if not can_draw(w) and not sum(w.goods[p * GSIZE + SH : p * GSIZE + SH + 3]):
                        w.pos += 1  # end_turn(w)
                        w.flags &= F_GRAVE
                        w.need = 0
                        continue
            return
        if ph in SEQ_PHASES:
            if w.pos >= n:
                if ph == P_DRUGPAY:
                    w.phase = P_FISTS
                    w.pos = 0
                else:
                    w.phase = P_CLEANUP
                continue
            p = (w.initiator + w.pos) % n
            if seq_choice(w, p, ph):  # len(seq_options(w, p, ph)) > 1
                return
            w.pos += 1
            continue
        if ph == P_FISTS:
            if -1 in w.fists:
                return
            if trace is not None:
                trace.append(("fists", tuple(w.fists)))
            reveal(w)
            continue
        if ph == P_SCORE:
            b = w.block
            placed = score(w, n)
            if trace is not None:
                trace.append(("placed", b, tuple(placed)))
            continue
        if ph == P_PICK:
            while w.pos < len(w.ranking):
                if pick_actions(w, w.ranking[w.pos]):
                    return
                w.pos += 1
                w.need = PAYOUT[w.pos] if w.pos < len(PAYOUT) else 0
            w.phase = P_CLEANUP
            continue
        if ph == P_CLEANUP:
            year = w.year
            cleanup(w, n)
            if trace is not None:
                if w.phase == P_END:
                    trace.append(("end",))
                elif w.year != year:
                    trace.append(("year", year))
                    if w.block == RIOT:
                        trace.append(("riot", w.initiator))
            continue
        return


def cleanup(w: Work, n: int) -> None:
    """Collect and Clean: pieces to the yard, cards to their discards, the Grave's reshuffle;
    owed goods; the initiator disc moves on; after the seventh block the end of the year."""
    pc = w.pieces  # a list once something moves (the fields stay tuples when nothing does)
    sup = None  # the supply and fight discards as lists, once a card goes back
    fdisc: list[int] = []
    for p, cp in enumerate(w.cards):
        f = p * PSIZE + FIGHT
        if pc[f] or pc[f + 1] or pc[f + 2]:
            pc = w.mut_pieces()
            y = p * PSIZE + YARD
            pc[y] += pc[f]
            pc[y + 1] += pc[f + 1]
            pc[y + 2] += pc[f + 2]
            pc[f] = pc[f + 1] = pc[f + 2] = 0
        if cp:
            if sup is None:
                sup = w.mut_supply()
                fdisc = list(w.fdisc)
            for code in cp:
                if code >= SHANK_CODE0:
                    sup[SDISC + code - SHANK_CODE0] += 1
                else:
                    fdisc[code] += 1
    if sup is not None:
        w.fdisc = tuple(fdisc)
    if w.bribed:
        pc = w.mut_pieces()
        for _h, o, t in w.bribed:
            pc[o * PSIZE + YARD + t] += 1
        w.bribed = ()
    w.cards = ((),) * n
    if w.flags & F_GRAVE:
        w.fdeck = tuple([a + b for a, b in zip(w.fdeck, w.fdisc)])
        w.fdisc = (0,) * NUM_KINDS
    if w.block == CAFE_B:
        # Unsold face-up goods go back into their deck and pile (ruling SQK-11).
        m = w.market
        into_deck(w, 0, m[M_SHANK : M_SHANK + 3], n)
        into_deck(w, 3, m[M_DRUG : M_DRUG + 3], n)
        sup = w.mut_supply()
        for i in range(3):
            sup[SDECK + i] += m[M_SHANK + i]
            sup[DPILE + i] += m[M_DRUG + i]
    w.market = (0,) * 11
    w.fists = ()
    w.inflight = w.passed = 0
    w.rnd = w.pos = w.need = w.flags = 0
    w.pending = -1
    w.ranking = ()
    if w.block == RIOT:
        gather_after_riot(w, n)
        deliver(w, n)
        w.phase = P_END
        return
    deliver(w, n)
    w.used |= 1 << w.block
    w.block = -1
    w.initiator = (w.initiator + 1) % n
    w.phase = P_BLOCK
    if w.used == ALL_BLOCKS:
        end_year(w, n)
        deliver(w, n)


__all__ = [
    "apply", "chance_outcomes", "check_action", "current_player", "explain_illegal", "game_apply",
    "game_chance_outcomes", "legal_actions",
    "max_game_length", "new_initial_state", "simultaneous_players",
]
