"""Reference observation encoders: the games' encoders as they were before issue 13 §3.

Each game's ``observation_tensor`` was rewritten for speed (it now fills a float32
``array.array``); these are the earlier, plain list-building versions, kept as the
reference that ``test_rl_encoders.py`` compares the fast encoders with on seeded
random states. Not used by the package.
"""

from __future__ import annotations

from kingmaker.core.api import CHANCE, SIMULTANEOUS
from kingmaker.games.gangs_of_green_city.data import (
    MAX_ESCALATIONS,
    NUM_CAST,
    NUM_GANGS,
    NUM_HERO,
    NUM_POIS,
    SPHERES_PER_GANG,
)
from kingmaker.games.gangs_of_green_city.state import OVER, SHIFT
from kingmaker.games.kingpin.state import (
    CHOOSE,
    DAWN,
    EXIT,
    LIQUIDATION,
    NO_MANS_LAND,
    OUT_OF_ACTIONS,
    START,
    STUCK,
)
from kingmaker.games.kingpin.state import DRAW as KP_DRAW
from kingmaker.games.kingpin.state import END as KP_END
from kingmaker.games.kingpin.state import PLAY as KP_PLAY
from kingmaker.games.kingpins.data import kinds
from kingmaker.games.kingpins.state import DEAL
from kingmaker.games.kings_kilt import rules as kk_rules
from kingmaker.games.kings_kilt.data import (
    CELLS,
    LEADERS_PER_CLAN,
    MEMBERS_PER_CLAN,
    NUM_CLANS,
    TOTAL_CARDS,
)
from kingmaker.games.kings_kilt.state import (
    END,
    FILL,
    PLAY,
    REVEAL,
    SETUP_FAMILY,
    SETUP_INFLUENCE,
    SETUP_ROW,
)
from kingmaker.games.kings_kilt.view import pile_known
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings.data import NUM_KINDS, PIECES_PER_TYPE
from kingmaker.games.san_quentin_kings.fight import strength
from kingmaker.games.san_quentin_kings.recall import GOODS, deck_at
from kingmaker.games.san_quentin_kings.state import (
    CHIPS,
    COMM,
    DPILE,
    DR,
    DUSED,
    F_BRIBED,
    F_COMMITTED,
    F_GRAVE,
    FP,
    GSIZE,
    OWE_COMM,
    OWE_DR,
    OWE_SH,
    P_DRAWN,
    P_DRUGPAY,
    P_FISTS,
    P_PICK,
    P_STOLEN,
    PSIZE,
    RESPECT,
    SCHIPS,
    SCOMM,
    SDECK,
    SDISC,
)

# ---- Gangs of Green City ---------------------------------------------------------------
MAX_SEATS = 5
SEAT = 1 + NUM_CAST + (NUM_POIS + 1) + NUM_HERO + 1  # 109
O_SPHERES = 0
O_SUPPLY = O_SPHERES + NUM_POIS * NUM_GANGS
O_SAFE = O_SUPPLY + NUM_GANGS
O_ENDED = O_SAFE + NUM_POIS
O_DEFEATED = O_ENDED + NUM_GANGS
O_ESC = O_DEFEATED + NUM_GANGS
O_WAR = O_ESC + MAX_ESCALATIONS + 1
O_SEATS = O_WAR + 9
O_ACTIVE = O_SEATS + MAX_SEATS * SEAT
O_MOVES = O_ACTIVE + MAX_SEATS
O_STAGE = O_MOVES + 1
O_DEAL = O_STAGE + OVER + 1
O_PILES = O_DEAL + 1
O_HERO_DISC = O_PILES + 2 * MAX_ESCALATIONS
O_GANG_DISC = O_HERO_DISC + NUM_HERO + MAX_ESCALATIONS
O_GANG_OUT = O_GANG_DISC + NUM_POIS
O_LAYERS = O_GANG_OUT + NUM_POIS
O_QUIET = O_LAYERS + NUM_POIS
O_WINDOW = O_QUIET + 1
O_PICK = O_WINDOW + 2 * MAX_SEATS
O_RESP = O_PICK + MAX_SEATS + 1 + 3 + NUM_GANGS
O_ESC_CARD = O_RESP + 5 + 2 * MAX_SEATS
O_WEAK = O_ESC_CARD + MAX_ESCALATIONS
O_RESULT = O_WEAK + NUM_CAST + NUM_POIS
O_OPTIONS = O_RESULT + 2
OBSERVATION_SIZE = O_OPTIONS + 3

_ZERO = [0.0] * OBSERVATION_SIZE
_THIRDS = (0.0, 1 / 3, 2 / 3, 1.0)


def gangs_of_green_city(game, s, player) -> list[float]:
    """Returns ``player``'s observation (the layout in the module docstring)."""
    n = game.num_players
    t = _ZERO[:]
    for p, x in enumerate(s.spheres):
        if x:
            b = O_SPHERES + p * NUM_GANGS
            for g in range(NUM_GANGS):
                t[b + g] = _THIRDS[x >> SHIFT[g] & 3]
    for g in range(NUM_GANGS):
        t[O_SUPPLY + g] = s.supply[g] / SPHERES_PER_GANG
        t[O_ENDED + g] = float(s.ended >> g & 1)
        t[O_DEFEATED + g] = float(s.defeated >> g & 1)
    for p in s.safe:
        t[O_SAFE + p] = 1.0
    t[O_ESC + s.esc] = 1.0
    t[O_WAR + min(s.war, 8)] = 1.0
    for i in range(n):
        q = (player + i) % n
        b = O_SEATS + i * SEAT
        t[b] = 1.0
        if s.cast[q] >= 0:
            t[b + 1 + s.cast[q]] = 1.0
        t[b + 1 + NUM_CAST + s.pawns[q]] = 1.0
        h = b + 1 + NUM_CAST + NUM_POIS + 1
        for c in s.hands[q]:
            t[h + c] = 1.0
        t[b + SEAT - 1] = s.tired[q] / 3
    t[O_ACTIVE + (s.current - player) % n] = 1.0
    t[O_MOVES] = s.moves / 5
    t[O_STAGE + s.stage] = 1.0
    t[O_DEAL] = s.deal / 9
    for i, (k, e) in enumerate(zip(s.piles, s.pile_esc)):
        t[O_PILES + 2 * i] = k / 11
        t[O_PILES + 2 * i + 1] = float(e)
    for c in s.hero_disc:
        t[O_HERO_DISC + c] = 1.0
    for c in s.gang_disc:
        t[O_GANG_DISC + c] = 1.0
    for c in s.gang_out:
        t[O_GANG_OUT + c] = 1.0
    for i, layer in enumerate(s.gang_layers):
        v = 1.0 / (1 + i)
        for c in layer:
            t[O_LAYERS + c] = v
    t[O_QUIET] = float(s.quiet)
    if s.window:
        t[O_WINDOW + (s.window[0] - player) % n] = 1.0
        for q in s.window:
            t[O_WINDOW + MAX_SEATS + (q - player) % n] = 1.0
    if s.pick_n > 0:
        t[O_PICK + (s.pick_player - player) % n] = 1.0
        t[O_PICK + MAX_SEATS] = s.pick_n / 7
        t[O_PICK + MAX_SEATS + 1 + s.pick_kind] = 1.0
        if s.pick_gang >= 0:
            t[O_PICK + MAX_SEATS + 4 + s.pick_gang] = 1.0
    if s.resp >= 0:
        t[O_RESP + s.resp] = 1.0
        t[O_RESP + 5 + (s.resp_player - player) % n] = 1.0
        if s.resp_pawn >= 0:
            t[O_RESP + 5 + MAX_SEATS + (s.resp_pawn - player) % n] = 1.0
    if s.esc_card >= 0:
        t[O_ESC_CARD + s.esc_card] = 1.0
    if s.weak_next:
        t[O_WEAK + s.weak_next[0]] = 1.0
        t[O_WEAK + NUM_CAST + s.weak_next[1]] = 1.0
    if s.result:
        t[O_RESULT + s.result - 1] = 1.0
    t[O_OPTIONS] = float(game.continue_fight)
    t[O_OPTIONS + 1] = float(game.every_card_weakness)
    t[O_OPTIONS + 2] = game.num_escalations / 6
    return t


# ---- King's Kilt -------------------------------------------------------------------
_PHASE_SLOT = {SETUP_FAMILY: 0, SETUP_INFLUENCE: 1, SETUP_ROW: 2, PLAY: 3, FILL: 4, REVEAL: 5, END: 6}
_CARD_VEC = tuple(
    tuple(1.0 if c == (k & 7) else 0.0 for c in range(NUM_CLANS)) + (1.0 if k >= NUM_CLANS else 0.0,)
    for k in range(2 * NUM_CLANS)
)
_NO_CARD = (0.0,) * 9


def kings_kilt(game, s, player) -> list[float]:
    """Returns ``player``'s observation, laid out as in the module's table."""
    n = game.num_players
    seats = [(player + j) % n for j in range(n)]
    cp = kk_rules.current_player(game, s)
    out = [0.0] * 7
    out[_PHASE_SLOT[s.phase]] = 1.0
    out.append(1.0 if cp == CHANCE else 0.0)
    out.extend(1.0 if q == cp else 0.0 for q in seats)
    out.extend(1.0 if q == s.current else 0.0 for q in seats)
    for k in s.pyramid:
        out.extend(_CARD_VEC[k] if k >= 0 else _NO_CARD)
    out.extend(_CARD_VEC[s.top] if s.top >= 0 else _NO_CARD)
    out.append((s.pile_n + (s.top >= 0)) / TOTAL_CARDS if s.phase > SETUP_INFLUENCE else 0.0)
    if pile_known(game, s):
        out.append(1.0)
        out.extend(s.unseen[k] / MEMBERS_PER_CLAN for k in range(NUM_CLANS))
    else:
        out.extend((0.0,) * 9)
    out.extend(d / MEMBERS_PER_CLAN for d in s.discards)
    r = s.removed
    out.extend(r[k] / MEMBERS_PER_CLAN for k in range(NUM_CLANS))
    out.extend(r[k] / LEADERS_PER_CLAN for k in range(NUM_CLANS, 2 * NUM_CLANS))
    out.append(float(s.crowned))
    vac = [0.0] * CELLS
    if s.vacuum >= 0:
        vac[s.vacuum] = 1.0
    out.extend(vac)
    out.extend(1.0 if q == s.noblemen else 0.0 for q in seats)
    out.extend(1.0 if q == s.guardians else 0.0 for q in seats)
    out.extend(s.pending.count(q) / 3 for q in seats)
    out.extend(float(s.passed >> q & 1) for q in seats)
    out.extend(sum(s.hands[q]) / 5 for q in seats)
    out.extend(len(s.family[q]) / 3 for q in seats)
    for q in seats:
        rev = s.revealed[q]
        out.extend(float(rev >> c & 1) for c in range(NUM_CLANS))
    out.append(s.deal / 24 if s.phase <= SETUP_ROW else 0.0)
    fam = s.family[player]
    out.extend(1.0 if c in fam else 0.0 for c in range(NUM_CLANS))
    out.extend(c / 5 for c in s.hands[player])
    if s.phase == END:
        for q in seats:
            out.extend(1.0 if c in s.family[q] else 0.0 for c in range(NUM_CLANS))
        pts = kk_rules.scores(s)
        out.extend(pts[q] / 10 for q in seats)
        won = kk_rules.winners(s)
        out.extend(1.0 if q in won else 0.0 for q in seats)
    else:
        out.extend((0.0,) * (10 * n))
    return out


# ---- Kingpin -----------------------------------------------------------------------
_PHASE_INDEX = {START: 0, CHOOSE: 1, KP_DRAW: 2, KP_PLAY: 3, KP_END: 4}
_REASON_INDEX = {EXIT: 0, NO_MANS_LAND: 1, LIQUIDATION: 2, OUT_OF_ACTIONS: 3, STUCK: 4, DAWN: 5}


def kp_tensor_size(t) -> int:
    """Returns the length of the observation tensor for tables ``t`` (see the module docstring)."""
    return t.n_sq * (t.n_tiles + 6) + 6 * t.n_tiles + 2 * len(t.mafias) + 17


def kingpin(game, s, player) -> list[float]:
    """Returns ``player``'s observation as flat floats, encoded as the module docstring says."""
    t = game.t
    S, T, M = t.n_sq, t.n_tiles, len(t.mafias)
    out = [0.0] * kp_tensor_size(t)
    me, them = player, 1 - player
    turn = player == 1
    mafia = s.mafia
    own = game.owners(mafia) if mafia[0] >= 0 and mafia[1] >= 0 else None
    per = T + 6
    board = s.board
    for sq in range(S):
        c = board[sq]
        if c < 0:
            continue
        tl = c >> 2
        f = c & 3
        base = ((S - 1 - sq) if turn else sq) * per
        if own is not None:
            out[base + (0 if own[tl] == me else 1)] = 1.0
        out[base + 2 + tl] = 1.0
        out[base + 2 + T + ((f + 2) & 3 if turn else f)] = 1.0
    b = S * per
    for i, group in enumerate((s.hand[me], s.deck[me], s.hand[them], s.deck[them])):
        o = b + i * T
        for x in group:
            out[o + x] = 1.0
    b += 4 * T
    if mafia[me] >= 0:
        out[b + mafia[me]] = 1.0
    if mafia[them] >= 0:
        out[b + M + mafia[them]] = 1.0
    c0 = b + 2 * M
    out[c0] = s.track[me] / game.track_start
    out[c0 + 1] = s.track[them] / game.track_start
    out[c0 + 2 + _PHASE_INDEX[s.phase]] = 1.0
    out[c0 + 7 + (0 if s.current == me else 1)] = 1.0
    for x in s.last_dead:
        out[c0 + 9 + x] = 1.0
    if s.phase == KP_END:
        out[c0 + 9 + T + (0 if s.winner == me else 1)] = 1.0
        r = _REASON_INDEX.get(s.reason)
        if r is not None:
            out[c0 + 11 + T + r] = 1.0
        if s.exited >= 0:
            out[c0 + 17 + T + s.exited] = 1.0
    return out


# ---- Kingpins ----------------------------------------------------------------------
TENSOR_SIZE = 780
_STACKS0, _DISC0, _SIZES0, _STOCK0, _PHASE0, _ROUND0, _CUR0 = 52, 468, 520, 524, 525, 531, 536
_DEAL0, _FLAGS0, _TOTALS0, _HIST0, _SHOWN0, _ABIL0, _PLAYERS0 = 540, 541, 544, 548, 568, 776, 777


def _add_counts(out, base, mask) -> None:
    """Adds the copies of each kind in the card set ``mask`` at ``out[base + kind]``."""
    for k in kinds(mask):
        out[base + k] += 1.0


def kingpins(game, s, player) -> list[float]:
    """Returns ``player``'s observation as flat floats, encoded as the module docstring says."""
    n = game.num_players
    out = [0.0] * TENSOR_SIZE
    _add_counts(out, 0, s.hands[player])
    base = _STACKS0
    for st in s.stacks:
        for k in st:
            out[base + k] = 1.0
        base += 52
    _add_counts(out, _DISC0, s.discards)
    for q in range(n):
        r = (q - player) % n
        out[_SIZES0 + r] = float(s.hands[q].bit_count())
        out[_TOTALS0 + r] = float(s.totals[q])
        for i, scores in enumerate(s.history):
            out[_HIST0 + 4 * i + r] = float(scores[q])
        _add_counts(out, _SHOWN0 + 52 * r, s.last_hands[q])
    out[_STOCK0] = float(s.unseen.bit_count())
    out[_PHASE0 + s.phase] = 1.0
    out[_ROUND0 + s.round] = 1.0
    out[_CUR0 + (s.current - player) % n] = 1.0
    if s.phase == DEAL:
        out[_DEAL0] = float(s.deal)
    out[_FLAGS0] = 1.0 if s.played else 0.0
    out[_FLAGS0 + 1] = 1.0 if s.no_draw else 0.0
    out[_FLAGS0 + 2] = float(s.passes)
    out[_ABIL0] = 1.0 if game.abilities else 0.0
    out[_PLAYERS0 + n - 2] = 1.0
    return out


# ---- San Quentin Kings ------------------------------------------------------------
SQ_GLOBAL = 108
SQ_SEAT = 67


def observation_shape(n: int) -> tuple[int, ...]:
    return (SQ_GLOBAL + n * SQ_SEAT,)


def _fist_status(s, q, n) -> int:
    """Returns the view's fist status of player ``q``: 0 out, 1 to pay, 2 paid, 3 choosing, 4 committed; -1 none."""
    if s.phase not in (P_FISTS, P_DRUGPAY) or not s.fists:
        return -1
    f = s.fists[q]
    if f == -2:
        return 1 if s.phase == P_DRUGPAY and (q - s.initiator) % n >= s.pos else 0
    if f == -1:
        return 2 if s.phase == P_DRUGPAY else 3
    return 4


def san_quentin_kings(game, s, player) -> list[float]:
    """Returns ``player``'s observation (layout in the module docstring)."""
    n = game.n
    out = [0.0] * (SQ_GLOBAL + n * SQ_SEAT)
    out[min(s.year, 4) - 1] = 1.0
    q0 = s.queue
    if q0:
        out[21] = 1.0
    else:
        out[4 + s.phase] = 1.0
    used = s.used
    for b in range(7):
        if used >> b & 1:
            out[22 + b] = 1.0
    if s.block >= 0:
        out[29 + s.block] = 1.0
    out[37 + s.rnd] = 1.0
    fl = s.flags
    fighting = s.block >= 0 and (s.block <= 3 or s.block == 7)
    if fighting:
        out[41] = 1.0 if fl & F_COMMITTED else 0.0
        out[42] = float(s.need) if fl & F_COMMITTED else 0.0
        out[43] = 1.0 if fl & F_BRIBED else 0.0
    out[44] = 1.0 if fl & F_GRAVE else 0.0
    cp = game.current_player(s)
    if not q0 and s.phase == P_DRAWN and fighting:
        out[45 + s.pending] = 1.0
    if not q0 and s.phase == P_STOLEN and cp == player:
        out[56 + s.pending % 3] = 1.0
    g = s.goods
    k = player * GSIZE
    for i in range(6):
        out[59 + i] = float(g[k + i])
    if s.phase == P_FISTS and s.fists and s.fists[player] >= 0:
        c, sc, t = A.fist_counts(s.fists[player])
        out[65], out[66], out[67] = float(c), float(sc), float(t)
    sup = s.supply
    out[68] = float(sup[SDECK] + sup[SDECK + 1] + sup[SDECK + 2])
    out[69], out[70], out[71] = float(sup[SDISC]), float(sup[SDISC + 1]), float(sup[SDISC + 2])
    out[72] = float(sup[DPILE] + sup[DPILE + 1] + sup[DPILE + 2])
    out[73], out[74], out[75] = float(sup[DUSED]), float(sup[DUSED + 1]), float(sup[DUSED + 2])
    out[76], out[77] = float(sup[SCOMM]), float(sup[SCHIPS])
    kn = s.known
    d = deck_at(n)
    for i in range(6):
        out[78 + i] = float(kn[d + i])
    for i in range(NUM_KINDS):
        out[84 + i] = float(s.fdeck[i])
    out[95] = float(sum(s.fdisc))
    m = s.market
    if s.block == 5 or (s.phase == P_PICK and not q0):
        for i in range(11):
            out[96 + i] = float(m[i])
    picking = -1
    if s.phase == P_PICK and not q0:
        out[107] = float(s.need)
        picking = s.ranking[s.pos]
    acting = game.acting_players(s) if cp == SIMULTANEOUS else ((cp,) if cp >= 0 else ())
    pc = s.pieces
    ranks = s.ranking if fighting else ()
    for r in range(n):
        q = (player + r) % n
        b = SQ_GLOBAL + r * SQ_SEAT
        if q == s.initiator:
            out[b] = 1.0
        if q in acting:
            out[b + 1] = 1.0
        inf = s.inflight >> q & 1
        if fighting and inf:
            out[b + 2] = 1.0
            out[b + 3] = float(s.passed >> q & 1)
        if q in ranks:
            out[b + 4 + ranks.index(q)] = 1.0
        if q == picking:
            out[b + 7] = 1.0
        o = q * PSIZE
        left = [PIECES_PER_TYPE] * 3
        for z in range(5):
            for t in range(3):
                v = pc[o + z * 3 + t]
                left[t] -= v
                if z < 4:
                    out[b + 8 + z * 3 + t] = float(v)
        for _h, ow, t in s.bribed:
            if ow == q:
                left[t] -= 1
        for t in range(3):
            out[b + 20 + t] = float(left[t])
        if fighting and inf:
            for t in range(3):
                out[b + 23 + t] = float(pc[o + 12 + t])
            for h, _ow, t in s.bribed:
                if h == q:
                    out[b + 26 + t] += 1.0
            st = strength(s, q)
            out[b + 29], out[b + 30], out[b + 31] = float(st[0]), float(st[1]), float(st[2])
            for code in s.cards[q]:
                out[b + 32 + code] += 1.0
        k = q * GSIZE
        out[b + 46] = float(g[k] + g[k + 1] + g[k + 2])
        out[b + 47] = float(g[k + DR] + g[k + DR + 1] + g[k + DR + 2])
        out[b + 48] = float(g[k + COMM])
        out[b + 49] = float(g[k + CHIPS])
        out[b + 50] = float(g[k + RESPECT])
        out[b + 51] = float(g[k + FP])
        out[b + 52] = float(g[k + OWE_SH])
        out[b + 53] = float(g[k + OWE_COMM])
        out[b + 54] = float(g[k + OWE_DR])
        fs = _fist_status(s, q, n)
        if fs >= 0:
            out[b + 55 + fs] = 1.0
        j = (player * n + q) * GOODS
        for i in range(6):
            out[b + 60 + i] = float(kn[j + i])
        out[b + 66] = 1.0
    return out


REFERENCE = {
    "gangs-of-green-city": gangs_of_green_city,
    "kings-kilt": kings_kilt,
    "kingpin": kingpin,
    "kingpins": kingpins,
    "san-quentin-kings": san_quentin_kings,
}
