"""What the players see of a Kingpin state (everything: nothing is hidden), log lines, reasons.

The view is rich because the terminal and the web page draw the board from it:
every square with its kind, every tile with its name, mafia, colour,
facing, toughness, icons per absolute side and per printed side, and the
squares under each sniper's fire.

Observation tensor (``observation_tensor``), seat-relative: "me" is the
observing player, "them" the other. For player 1 the board is turned half
round (square ``sq`` becomes ``S-1-sq``, a facing turns by 180 degrees), so
every player sees their own area at the bottom, as player 0 does (both board
sides are symmetric under a half turn). With S squares (20), T tiles (24) and
M mafias (3), flat, in this order::

    offset              size       meaning (1.0 = yes, else 0.0)
    0                   S*(T+6)    per square (turned for player 1), T+6 values each:
                                     +0 my tile, +1 their tile, +2..+2+T tile id,
                                     +2+T..+6+T facing N, E, S, W (turned for player 1)
    B = S*(T+6)         T          my face-up tiles (by tile id)
    B+T                 T          my face-down tiles (the known set, ruling KP-R2)
    B+2T                T          their face-up tiles
    B+3T                T          their face-down tiles
    B+4T                M          my mafia (one-hot; none before the choice)
    B+4T+M              M          their mafia
    C = B+4T+2M         2          movement actions left / track start: mine, theirs
    C+2                 5          phase: START, CHOOSE, DRAW, PLAY, END
    C+7                 2          the current player (to move, or drawing) is me / them
    C+9                 T          tiles liquidated by the last action
    C+9+T               2          the game is over and I won / they won
    C+11+T              6          end reason: exit, no-mans-land, liquidation,
                                   out-of-actions, no-action, dawn
    C+17+T              T          the tile that left the board (an exit)
    total: S*(T+6) + 6T + 2M + 17  (767 with the designed tiles and boards)

``information_state_string`` is the observer's seat and every state field
(the view shows them all: nothing is hidden), so equal views give equal
strings and different views different ones.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from ...core.api import CHANCE
from ...core.tensors import LastTensors
from .data import DIRS, MAFIA_INFO, SIDES
from .state import (
    CHOOSE,
    DAWN,
    DRAW,
    END,
    EXIT,
    LIQUIDATION,
    NO_MANS_LAND,
    OUT_OF_ACTIONS,
    PHASE_NAMES,
    PLAY,
    START,
    STUCK,
    State,
)

if TYPE_CHECKING:
    from .game import Kingpin

REASONS = {
    EXIT: "a gangster left the board past the enemy's area of influence (the enemy kingpin is liquidated)",
    NO_MANS_LAND: "three gangsters hold No Man's Land and the enemy has none there",
    LIQUIDATION: "every enemy gangster is liquidated",
    OUT_OF_ACTIONS: "the loser ran out of actions (the action token went below 1)",
    STUCK: "the loser had no action to take",
    DAWN: "dawn ended A Very Long Night",
}


# Short reason codes of outcome(s) (the lab's end reasons), by the state's reason.
REASON_CODES = {
    EXIT: "exit",
    NO_MANS_LAND: "no_mans_land",
    LIQUIDATION: "liquidation",
    OUT_OF_ACTIONS: "out_of_actions",
    STUCK: "no_action",
    DAWN: "dawn",
}


def plural(n: int, word: str) -> str:
    """Returns '1 gangster', '2 gangsters'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def outcome(game: Kingpin, s: State) -> dict:
    """Returns who won and why: ``{"winners": [w], "reason": code, "text": sentence}``.

    Reason codes: exit, no_mans_land, liquidation, out_of_actions, no_action, and at dawn
    (A Very Long Night, ruling KP-R9) dawn_alive, dawn_no_mans_land or dawn_last_action,
    naming the tie-break that decided.
    """
    if s.phase != END:
        return {"winners": [], "reason": "unfinished", "text": "the game is not over"}
    w = s.winner
    lo = 1 - w
    code = REASON_CODES.get(s.reason, s.reason.replace("-", "_"))
    if s.reason == EXIT:
        who = game.t.tiles[s.exited].short if s.exited >= 0 else "a gangster"
        text = (f"player {w} wins: {who} left the board past player {lo}'s area of influence "
                "(the enemy kingpin is liquidated)")
    elif s.reason == NO_MANS_LAND:
        n = game.nml_counts(s.board, s.mafia)[w]
        text = f"player {w} wins: {plural(n, 'gangster')} on No Man's Land and none of player {lo}'s"
    elif s.reason == LIQUIDATION:
        text = f"player {w} wins: every gangster of player {lo} is liquidated"
    elif s.reason == OUT_OF_ACTIONS:
        text = f"player {w} wins: player {lo} ran out of actions (the action token went below 1)"
    elif s.reason == STUCK:
        text = f"player {w} wins: player {lo} had no action to take"
    elif s.reason == DAWN:
        alive = game.alive(s.board, s.hand, s.deck, s.mafia)
        nml = game.nml_counts(s.board, s.mafia)
        if alive[w] != alive[lo]:
            code = "dawn_alive"
            text = f"player {w} wins at dawn: {plural(alive[w], 'gangster')} alive against {alive[lo]}"
        elif nml[w] != nml[lo]:
            code = "dawn_no_mans_land"
            text = (f"player {w} wins at dawn: {plural(alive[w], 'gangster')} alive each, broken by "
                    f"No Man's Land: {plural(nml[w], 'tile')} there against {nml[lo]}")
        else:
            code = "dawn_last_action"
            text = (f"player {w} wins at dawn: {plural(alive[w], 'gangster')} alive and "
                    f"{plural(nml[w], 'tile')} on No Man's Land each, broken by the last action of "
                    f"the night: player {lo} took it")
    else:  # pragma: no cover - every reason is named above
        text = f"player {w} wins: {REASONS.get(s.reason, s.reason)}"
    return {"winners": [w], "reason": code, "text": text}


FIGURES = ("gangsters_alive", "no_mans_land", "actions_left")


def figures(game: Kingpin, s: State) -> dict[str, tuple[float, ...]]:
    """Returns per seat: gangsters alive (board, face up, face down), tiles on No Man's Land,
    movement actions left on the track (before dawn with long_night)."""
    if s.mafia[0] < 0 or s.mafia[1] < 0:
        return {"gangsters_alive": (0, 0), "no_mans_land": (0, 0), "actions_left": tuple(s.track)}
    return {
        "gangsters_alive": tuple(game.alive(s.board, s.hand, s.deck, s.mafia)),
        "no_mans_land": tuple(game.nml_counts(s.board, s.mafia)),
        "actions_left": tuple(s.track),
    }


def mafia_info(game: Kingpin, m: int) -> dict:
    key = game.t.mafias[m]
    info = MAFIA_INFO.get(key, {"name": key, "color": "grey", "letter": key[:1].upper()})
    return {"key": key, "name": info["name"], "color": info["color"], "letter": info["letter"]}


def tile_info(game: Kingpin, tl: int, facing: int | None = None, owner: int | None = None) -> dict:
    """Returns a tile as JSON data; with a facing, its icons per absolute side too."""
    t = game.t
    tile = t.tiles[tl]
    m = t.MAFIA[tl]
    out = {
        "id": tl,
        "name": tile.name,
        "short": tile.short,
        "mafia": t.mafias[m],
        "color": mafia_info(game, m)["color"],
        "player": owner,
        "toughness": tile.toughness,
        "sniper": tile.sniper,
        "start": tile.start,
        "printed": {SIDES[i]: _icons(tile.sides[i]) for i in range(4)},
    }
    if tile.sniper:
        out["fire_pattern"] = [list(x) for x in tile.fire]
    if facing is not None:
        out["facing"] = DIRS[facing]
        out["sides"] = {DIRS[d]: {**_icons(tile.sides[(d - facing) % 4]), "printed": SIDES[(d - facing) % 4]}
                        for d in range(4)}
    return out


def _icons(side: tuple[int, int, int, int]) -> dict:
    p, c, v, s = side
    return {"pistols": p, "cars": c, "vests": v, "pens": s, "icons": "P" * p + "C" * c + "V" * v + "S" * s}


def view(game: Kingpin, s: State, player: int | None) -> dict:
    t = game.t
    b = t.board
    cp = game.current_player(s)
    chosen = all(m >= 0 for m in s.mafia)
    own = game.owners(s.mafia) if chosen else None
    fire: dict[int, list[str]] = {}
    squares = []
    for sq in range(t.n_sq):
        c = s.board[sq]
        if c >= 0 and t.SNIPER[c >> 2]:
            for x in t.FIRE[sq][c]:
                fire.setdefault(x, []).append(t.tiles[c >> 2].short)
    for sq in range(t.n_sq):
        c = s.board[sq]
        area = next((p for p in range(2) if sq in t.AREA[p]), None)
        exit_for = next((p for p in range(2) if t.EXIT[p][sq] >= 0), None)
        kind = "no_mans_land" if sq in t.NML else "area" if area is not None else "plain"
        squares.append({
            "name": t.sq_names[sq],
            "column": sq % b.columns,
            "row": sq // b.columns,
            "kind": kind,
            "area_of": area,
            "exit_for": exit_for,
            "exit_dir": DIRS[t.EXIT[exit_for][sq]] if exit_for is not None else None,
            "under_fire_by": fire.get(sq, []),
            "tile": tile_info(game, c >> 2, c & 3, own[c >> 2] if own else None) if c >= 0 else None,
        })
    players = []
    for p in range(2):
        m = s.mafia[p]
        entry: dict = {"player": p, "mafia": mafia_info(game, m) if m >= 0 else None}
        if chosen:  # tiles are dealt once both mafias are chosen
            on_board = [t.tiles[c >> 2].short for c in s.board if c >= 0 and own and own[c >> 2] == p]
            gone = set(s.hand[p]) | set(s.deck[p]) | {c >> 2 for c in s.board if c >= 0} | {s.exited}
            entry.update({
                "face_up": [tile_info(game, x, None, p) for x in s.hand[p]],
                "face_down": {"count": len(s.deck[p]), "tiles": [t.tiles[x].short for x in s.deck[p]]},
                "on_board": on_board,
                "liquidated": [t.tiles[x].short for x in t.BY_MAFIA[m] if x not in gone] if m >= 0 else [],
                "in_no_mans_land": sum(1 for sq in t.NML if s.board[sq] >= 0 and own and own[s.board[sq] >> 2] == p),
            })
        entry["actions_left"] = s.track[p]  # with long_night: movement actions left before dawn
        if game.long_night:
            entry["actions_before_dawn"] = s.track[p]
        players.append(entry)
    out = {
        "game": game.id,
        "players": 2,
        "you": player,
        "phase": PHASE_NAMES[s.phase],
        "to_move": "chance" if cp == CHANCE else (None if cp < 0 else cp),
        "current": s.current,
        "options": dict(game.option_values),
        "board": {
            "name": b.name,
            "about": b.about,
            "columns": b.columns,
            "rows": b.rows,
            "column_names": [chr(ord("a") + i) for i in range(b.columns)],
            "squares": squares,
            "areas": [[t.sq_names[x] for x in a] for a in t.AREA_T],
            "no_mans_land": sorted(t.sq_names[x] for x in t.NML),
            "exits": [[[t.sq_names[x], DIRS[d]] for x, d in b.exits[p]] for p in range(2)],
        },
        "mafias_available": [mafia_info(game, m) for m in range(len(t.mafias)) if m not in s.mafia],
        "players_info": players,
        "last_liquidated": [t.tiles[x].short for x in s.last_dead],
        "action_track": not game.long_night,
    }
    if s.phase == END:
        out["winner"] = s.winner
        out["reason"] = s.reason
        out["reason_text"] = REASONS.get(s.reason, s.reason)
        out["outcome"] = outcome(game, s)["text"]
        out["returns"] = list(game.returns(s))
        if s.exited >= 0:
            out["exited"] = tile_info(game, s.exited, None, s.winner)
    return out


def observe_action(game: Kingpin, s: State, action: int, player: int | None, observer: int | None) -> str:
    if s.phase == START:
        return f"chance: player {action} starts (chosen at random)"
    if s.phase == DRAW:
        return f"player {s.current} turns up {game.t.tiles[action].short}"
    text = game.codec.to_str(action)
    line = f"player {player}: {text}"
    after = game.apply(s, action, player)
    if after.last_dead and action < game.codec.PLAY0 and action >= game.codec.SHOOT0:
        line += " (liquidated: " + ", ".join(game.t.tiles[x].short for x in after.last_dead) + ")"
    if after.phase == END:
        line += f"; {outcome(game, after)['text']}"
    return line


def explain_illegal(game: Kingpin, s: State, action: int, player: int) -> str:
    """Returns why ``action`` is not legal for ``player`` in ``s`` (a short phrase)."""
    C = game.codec
    t = game.t
    if s.phase == 0:
        if C.CHOOSE0 <= action < C.N:
            return "the starting player has already chosen that mafia"
        return "both players must first choose a mafia"
    if s.phase != 2:
        return "it is not one of the legal moves now"
    if action >= C.CHOOSE0:
        return "the mafias are already chosen"
    own = game.owners(s.mafia)
    board = s.board
    if action >= C.PLAY0:
        x, _ = divmod(action - C.PLAY0, 4)
        tl, sq = divmod(x, t.n_sq)
        if tl not in s.hand[player]:
            return f"{t.tiles[tl].short} is not one of your face-up tiles waiting to be played"
        if sq not in t.AREA[player]:
            return f"a new tile is played on a free square of your own area of influence ({', '.join(t.sq_names[q] for q in t.AREA_T[player])})"
        return "that square is not free"
    if action < C.MOVE0:
        sq = action // 4
    elif action < C.CASTLE0:
        sq = (action - C.MOVE0) // 20
    elif action < C.SHOOT0:
        sq = (action - C.CASTLE0) // 18
    elif action < C.RAID0:
        sq = (action - C.SHOOT0) // 4
    else:
        sq = (action - C.RAID0) // 4
    c = board[sq]
    if c < 0:
        return f"there is no tile on {t.sq_names[sq]}"
    if own[c >> 2] != player:
        return f"the tile on {t.sq_names[sq]} belongs to your opponent"
    if action < C.MOVE0:
        return "a turn must be by 90, 180 or 270 degrees (the tile already faces that way)"
    if action < C.CASTLE0:
        x, k = divmod(action - C.MOVE0, 5)
        d = x % 4
        n = t.NB[sq][d]
        if n < 0:
            if k:
                return "a gangster leaving the board is not turned"
            return "a tile leaves the board only past the enemy's area, from a red-triangle square"
        if board[n] >= 0:
            return "two tiles can never occupy the same square"
        return "a turn after a move must be by 90, 180 or 270 degrees"
    if action < C.SHOOT0:
        x, k = divmod(action - C.CASTLE0, 9)
        n = C.castle_other(sq, x % 2)
        if n < 0 or board[n] < 0:
            return "castling needs two of your tiles on adjacent squares"
        if own[board[n] >> 2] != player:
            return "you cannot castle with a gangster of the other mafia"
        return "a turn after castling must be by 90, 180 or 270 degrees"
    d = (action - (C.SHOOT0 if action < C.RAID0 else C.RAID0)) % 4
    if t.SNIPER[c >> 2]:
        return "a sniper cannot initiate an attack"
    n = t.NB[sq][d]
    if action < C.RAID0:
        if n < 0 or board[n] < 0 or own[board[n] >> 2] == player:
            return "a shootout needs an enemy tile on the adjacent square in that direction"
        if not t.AIM[c][d]:
            return "the attacking gangster has no aim (pistol) directed towards that enemy"
        return "the attack would not liquidate the attacked gangster (too little power for its toughness)"
    if not t.CAR[c][d]:
        return "a raid needs a car icon on the side towards the enemy"
    if n < 0 or board[n] >= 0:
        return "a raid needs a free square between the raider and the enemy"
    n2 = t.NB[n][d]
    if n2 < 0 or board[n2] < 0 or own[board[n2] >> 2] == player:
        return "a raid needs an enemy tile two squares away in a straight line"
    return "the raid would not liquidate the attacked gangster (too little power for its toughness)"


# ---- the research surface ---------------------------------------------------------------
_PHASE_INDEX = {START: 0, CHOOSE: 1, DRAW: 2, PLAY: 3, END: 4}
_REASON_INDEX = {EXIT: 0, NO_MANS_LAND: 1, LIQUIDATION: 2, OUT_OF_ACTIONS: 3, STUCK: 4, DAWN: 5}


def tensor_size(t) -> int:
    """Returns the length of the observation tensor for tables ``t`` (see the module docstring)."""
    return t.n_sq * (t.n_tiles + 6) + 6 * t.n_tiles + 2 * len(t.mafias) + 17


# The encoder fills a fresh float32 array("f") (numpy views its buffer without a copy). A square's
# T+6 values come from a table built once per tile count: by card (tile << 2 | facing), owner
# (mine, theirs, unknown) and turn. A move changes one or two squares, so each (game, player)
# keeps its last state and tensor, and the next tensor starts from a copy of that one: it
# rewrites the squares that differ, the hands and decks when they changed and the last block
# (tracks, phase, turn, casualties, the end) always; a changed mafia choice rebuilds it all.
# tests/rl/test_rl_encoders.py checks it against a plain reference in any order of states.
_ZEROS: dict[int, array] = {}
_SQUARES: dict[int, tuple[list[array], list[array]]] = {}
_LAST = LastTensors()


def _square_table(T: int) -> tuple[list[array], list[array]]:
    """Returns, for player 0 and player 1 (turned), the square block of card c and owner o at c * 3 + o."""
    per = T + 6
    out = []
    for turn in (False, True):
        rows = []
        for c in range(T * 4):
            tl, f = c >> 2, c & 3
            for o in range(3):
                v = array("f", bytes(4 * per))
                if o < 2:
                    v[o] = 1.0
                v[2 + tl] = 1.0
                v[2 + T + ((f + 2) & 3 if turn else f)] = 1.0
                rows.append(v)
        out.append(rows)
    return out[0], out[1]


def observation_tensor(game: Kingpin, s: State, player: int) -> array:
    """Returns ``player``'s observation as a flat float32 array("f") (numpy views its buffer without a
    copy), encoded as the module docstring says."""
    return _LAST.tensor(game, s, player, _full, _encode, _same_mafias)


def _same_mafias(ps: State, s: State) -> bool:
    return ps.mafia == s.mafia


def _full(game: Kingpin, s: State, player: int) -> array:
    """Returns ``player``'s observation built from zero."""
    size = tensor_size(game.t)
    zeros = _ZEROS.get(size)
    if zeros is None:
        zeros = _ZEROS[size] = array("f", bytes(4 * size))
    out = zeros[:]
    _encode(game, s, player, out, None)
    return out


def _encode(game: Kingpin, s: State, player: int, out: array, ps: State | None) -> None:
    """Writes ``player``'s observation of ``s`` into ``out``: all zero (``ps`` None), or the
    observation of ``ps``, a state of the same game with the same mafias."""
    t = game.t
    S, T, M = t.n_sq, t.n_tiles, len(t.mafias)
    me, them = player, 1 - player
    turn = player == 1
    mafia = s.mafia
    own = game.owners(mafia) if mafia[0] >= 0 and mafia[1] >= 0 else None
    per = T + 6
    zero = _ZEROS[tensor_size(t)]
    table = _SQUARES.get(T)
    if table is None:
        table = _SQUARES[T] = _square_table(T)
    vec = table[1] if turn else table[0]
    board = s.board
    if ps is None:
        for sq in range(S):
            c = board[sq]
            if c >= 0:
                base = ((S - 1 - sq) if turn else sq) * per
                out[base:base + per] = vec[c * 3 + (2 if own is None else 0 if own[c >> 2] == me else 1)]
    elif board is not ps.board:
        pb = ps.board
        for sq in range(S):
            c = board[sq]
            if c != pb[sq]:
                base = ((S - 1 - sq) if turn else sq) * per
                if c >= 0:
                    out[base:base + per] = vec[c * 3 + (2 if own is None else 0 if own[c >> 2] == me else 1)]
                else:
                    out[base:base + per] = zero[:per]
    b = S * per
    if ps is None or s.hand is not ps.hand or s.deck is not ps.deck:
        if ps is not None:
            out[b:b + 4 * T] = zero[:4 * T]
        for i, group in enumerate((s.hand[me], s.deck[me], s.hand[them], s.deck[them])):
            o = b + i * T
            for x in group:
                out[o + x] = 1.0
    b += 4 * T
    if ps is None:
        if mafia[me] >= 0:
            out[b + mafia[me]] = 1.0
        if mafia[them] >= 0:
            out[b + M + mafia[them]] = 1.0
    c0 = b + 2 * M
    if ps is not None:
        out[c0:] = zero[:17 + 2 * T]
    out[c0] = s.track[me] / game.track_start
    out[c0 + 1] = s.track[them] / game.track_start
    out[c0 + 2 + _PHASE_INDEX[s.phase]] = 1.0
    out[c0 + 7 + (0 if s.current == me else 1)] = 1.0
    for x in s.last_dead:
        out[c0 + 9 + x] = 1.0
    if s.phase == END:
        out[c0 + 9 + T + (0 if s.winner == me else 1)] = 1.0
        r = _REASON_INDEX.get(s.reason)
        if r is not None:
            out[c0 + 11 + T + r] = 1.0
        if s.exited >= 0:
            out[c0 + 17 + T + s.exited] = 1.0


def information_state_string(game: Kingpin, s: State, player: int | None) -> str:
    """Returns the observer's seat (None: a spectator) and every state field (nothing is
    hidden): a canonical key."""
    return (f"{player}|{s.phase}|{s.current}|{s.mafia}|{s.board}|{s.hand}|{s.deck}|{s.track}|"
            f"{s.winner}|{s.reason}|{s.last_dead}|{s.exited}")
