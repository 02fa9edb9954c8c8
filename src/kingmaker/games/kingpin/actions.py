"""Kingpin actions as ints, and their notation.

With S squares (20), T tiles (24) and M mafias (3) the action space is::

    TURN    0    + sq*4 + facing                     "turn c2 E"
    MOVE    4S   + (sq*4 + dir)*5 + k                "move c2 N", "move c2 N turn E", "exit b5"
                 k = 0: no turn; 1..4: then face k-1. A move off the board
                 (only from a red-triangle square, outwards) is an exit.
    CASTLE  24S  + (sq*2 + axis)*9 + k               "castle b1 c1", "castle b1 c1 turn c1 E"
                 axis 0: with the square east of sq, 1: north of sq;
                 k = 0: no turn; 1..4: the tile now on sq faces k-1;
                 5..8: the tile now on the other square faces k-5
    SHOOT   42S  + sq*4 + dir                        "shoot b2 N"
    RAID    46S  + sq*4 + dir                        "raid b2 N"
    PLAY    50S  + (tile*S + sq)*4 + facing          "play Vasili c1 N"
    CHOOSE  PLAY + 4TS + mafia                       "choose Russians"

so there are ``N = 50S + 4TS + M`` player actions (2,923 with the designed tiles
and a 4x5 board; ``num_distinct_actions``). Chance outcomes have their own
range: at the start the seat that starts (0, 1: "player 1 starts"), at a draw
the id of the tile drawn (0..T-1: "draw Vasili").

Directions and facings are absolute: N (towards row 5), E, S, W.
"""

from __future__ import annotations

from .data import DIR_BY_NAME, DIRS, MAFIA_INFO, Tables


class Codec:
    """Encodes, names and parses the actions of one game's board and tile set."""

    def __init__(self, t: Tables) -> None:
        self.t = t
        S, T = t.n_sq, t.n_tiles
        self.S = S
        self.TURN0 = 0
        self.MOVE0 = 4 * S
        self.CASTLE0 = 24 * S
        self.SHOOT0 = 42 * S
        self.RAID0 = 46 * S
        self.PLAY0 = 50 * S
        self.CHOOSE0 = self.PLAY0 + 4 * T * S
        self.N = self.CHOOSE0 + len(t.mafias)
        names = {}
        for i, m in enumerate(t.mafias):
            names[m.lower()] = i
            info = MAFIA_INFO.get(m)
            if info:
                names[info["name"].lower()] = i
        self.mafia_by_name = names

    # ---- builders -------------------------------------------------------------
    def turn(self, sq: int, facing: int) -> int:
        return self.TURN0 + sq * 4 + facing

    def move(self, sq: int, d: int, facing: int = -1) -> int:
        return self.MOVE0 + (sq * 4 + d) * 5 + facing + 1

    def castle(self, sq: int, axis: int, k: int = 0) -> int:
        return self.CASTLE0 + (sq * 2 + axis) * 9 + k

    def shoot(self, sq: int, d: int) -> int:
        return self.SHOOT0 + sq * 4 + d

    def raid(self, sq: int, d: int) -> int:
        return self.RAID0 + sq * 4 + d

    def play(self, tile: int, sq: int, facing: int) -> int:
        return self.PLAY0 + (tile * self.S + sq) * 4 + facing

    def choose(self, mafia: int) -> int:
        return self.CHOOSE0 + mafia

    def draw(self, tile: int) -> int:
        """Returns the chance outcome of drawing ``tile`` (its id)."""
        return tile

    def draw_str(self, tile: int) -> str:
        return f"draw {self.t.tiles[tile].short}"

    def castle_other(self, sq: int, axis: int) -> int:
        """Returns the square castled with ``sq`` along ``axis`` (-1 off the board)."""
        return self.t.NB[sq][1 if axis == 0 else 0]

    # ---- notation -------------------------------------------------------------
    def to_str(self, a: int) -> str:
        t = self.t
        sn = t.sq_names
        if a < 0 or a >= self.N:
            raise ValueError(f"no Kingpin action {a}")
        if a < self.MOVE0:
            sq, f = divmod(a - self.TURN0, 4)
            return f"turn {sn[sq]} {DIRS[f]}"
        if a < self.CASTLE0:
            x, k = divmod(a - self.MOVE0, 5)
            sq, d = divmod(x, 4)
            if t.NB[sq][d] < 0 and k == 0:
                return f"exit {sn[sq]}"
            return f"move {sn[sq]} {DIRS[d]}" + (f" turn {DIRS[k - 1]}" if k else "")
        if a < self.SHOOT0:
            x, k = divmod(a - self.CASTLE0, 9)
            sq, axis = divmod(x, 2)
            other = self.castle_other(sq, axis)
            o = sn[other] if other >= 0 else "?"
            text = f"castle {sn[sq]} {o}"
            if 1 <= k <= 4:
                text += f" turn {sn[sq]} {DIRS[k - 1]}"
            elif k >= 5:
                text += f" turn {o} {DIRS[k - 5]}"
            return text
        if a < self.RAID0:
            sq, d = divmod(a - self.SHOOT0, 4)
            return f"shoot {sn[sq]} {DIRS[d]}"
        if a < self.PLAY0:
            sq, d = divmod(a - self.RAID0, 4)
            return f"raid {sn[sq]} {DIRS[d]}"
        if a < self.CHOOSE0:
            x, f = divmod(a - self.PLAY0, 4)
            tl, sq = divmod(x, self.S)
            return f"play {t.tiles[tl].short} {sn[sq]} {DIRS[f]}"
        m = t.mafias[a - self.CHOOSE0]
        return f"choose {MAFIA_INFO[m]['name'] if m in MAFIA_INFO else m}"

    def parse(self, text: str) -> int | None:
        """Returns the action ``text`` names (legal or not), or None if it is not notation.

        "draw X" gives a chance outcome (the tile id), which shares ints with player
        actions: the game reads it only at a draw.
        """
        words = text.strip().lower().replace(",", " ").split()
        if not words:
            return None
        t = self.t
        sqs = t.SQ_BY_NAME
        head, rest = words[0], words[1:]

        def d(w: str) -> int:
            return DIR_BY_NAME.get(w.upper(), -1)

        if head == "turn" and len(rest) == 2 and rest[0] in sqs and d(rest[1]) >= 0:
            return self.turn(sqs[rest[0]], d(rest[1]))
        if head == "exit" and len(rest) == 1 and rest[0] in sqs:
            sq = sqs[rest[0]]
            outs = [x for x in range(4) if t.NB[sq][x] < 0]
            if not outs:
                return None
            # The exit direction of a red-triangle square for either player, else the first edge.
            for p in range(2):
                if t.EXIT[p][sq] >= 0:
                    return self.move(sq, t.EXIT[p][sq])
            return self.move(sq, outs[0])
        if head == "move" and len(rest) in (2, 4) and rest[0] in sqs and d(rest[1]) >= 0:
            facing = -1
            if len(rest) == 4:
                if rest[2] != "turn" or d(rest[3]) < 0:
                    return None
                facing = d(rest[3])
            return self.move(sqs[rest[0]], d(rest[1]), facing)
        if head == "castle" and len(rest) in (2, 5) and rest[0] in sqs and rest[1] in sqs:
            a, b = sqs[rest[0]], sqs[rest[1]]
            lo, hi = min(a, b), max(a, b)
            if t.NB[lo][1] == hi:
                axis = 0
            elif t.NB[lo][0] == hi:
                axis = 1
            else:
                return None
            k = 0
            if len(rest) == 5:
                if rest[2] != "turn" or rest[3] not in (rest[0], rest[1]) or d(rest[4]) < 0:
                    return None
                k = (1 if sqs[rest[3]] == lo else 5) + d(rest[4])
            return self.castle(lo, axis, k)
        if head in ("shoot", "raid") and len(rest) == 2 and rest[0] in sqs and d(rest[1]) >= 0:
            fn = self.shoot if head == "shoot" else self.raid
            return fn(sqs[rest[0]], d(rest[1]))
        if head == "play" and len(rest) >= 3 and rest[-2] in sqs and d(rest[-1]) >= 0:
            name = " ".join(rest[:-2])
            tl = t.BY_SHORT.get(name, t.BY_NAME.get(name, -1))
            if tl < 0:
                return None
            return self.play(tl, sqs[rest[-2]], d(rest[-1]))
        if head == "choose" and rest:
            m = self.mafia_by_name.get(" ".join(rest))
            return None if m is None else self.choose(m)
        if head == "draw" and rest:
            name = " ".join(rest)
            tl = t.BY_SHORT.get(name, t.BY_NAME.get(name, -1))
            return None if tl < 0 else self.draw(tl)
        return None
