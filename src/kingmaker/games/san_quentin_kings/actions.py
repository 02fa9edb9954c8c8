"""San Quentin Kings actions as ints, and their notation (p0..p4 are players 0-4).

    0..6        choose an action block                      "choose gym"
    7..518      fist: 7 + c*64 + s*8 + t                     "fist C2 S0 T1"
    519..582    gym: 519 + t*16 + s*4 + c (trained pieces)   "gym T1 S0 C2"
    583..594    cafeteria: shank C/S/T, drug G/W/B, piece C/S/T, respect 2, respect 1, nothing
                                                            "buy shank cobra", "buy nothing"
    595..643    guard influence: a chip for goods i <= j      "buy chip with commissary + green-drug"
    644         stop buying chips                           "done buying"
    645..649    drug payment: commissary, shank C/S/T, decline "pay commissary", "decline"
    650         pass (leave the fight)                       "pass"
    651         draw a fight card                            "draw"
    652..654    play a shank card                            "shank cobra"
    655         end the fighting turn                        "end turn"
    656, 657    keep / redraw (bribe) the card just drawn     "keep card", "bribe redraw"
    658         bribe: one more card                         "bribe extra card"
    659..733    bribe: take a piece 659 + (h*5+o)*3 + t       "bribe take cobra of p2 from p1"
    734..736    bribe: own piece from solitary               "bribe free cobra"
    737..751    bribe: steal 737 + q*3 + g                   "bribe steal drug from p2"
    752..754    bribe: steal from the supply                 "bribe steal drug from supply"
    755..829    bribe: kill 755 + (h*5+o)*3 + t              "bribe kill cobra of p2 at p1"
    830..832    guard card: own piece to solitary            "solitary cobra"
    833..835    parole card: own piece leaves the game       "parole cobra"
    836..840    steal drug card: victim                      "steal drug from p2"
    841..845    steal shank card: victim                     "steal shank from p2"
    846, 847    play / keep the stolen shank                 "play stolen", "keep stolen"
    848..850    new arrival pick                             "pick cobra"
    chance:     851..855 initiator, 856..858 shank card, 859..861 drug chip, 862..872 fight card,
                873..936 several shank cards 873 + c*16 + s*4 + t  "shank cards C2 S0 T1",
                937..1000 several drug chips 937 + g*16 + w*4 + b  "drug chips G1 W0 B2"
"""

from __future__ import annotations

from .data import BLOCK_SLUGS, CARD_NAMES, DRUGS, GOOD_NAMES, NUM_KINDS, STEAL_GOODS, TYPES

MAXP = 5
BLOCK0 = 0
FIST0 = 7
GYM0 = FIST0 + 512
CAFE0 = GYM0 + 64
CAFE_SHANK0 = CAFE0
CAFE_DRUG0 = CAFE0 + 3
CAFE_PIECE0 = CAFE0 + 6
CAFE_R2 = CAFE0 + 9
CAFE_R1 = CAFE0 + 10
CAFE_NONE = CAFE0 + 11
CHIP0 = CAFE0 + 12
CHIP_DONE = CHIP0 + 49
PAY_COMM = CHIP_DONE + 1
PAY_SHANK0 = PAY_COMM + 1
DECLINE = PAY_SHANK0 + 3
PASS = DECLINE + 1
DRAW = PASS + 1
SHANK0 = DRAW + 1
END_TURN = SHANK0 + 3
KEEP = END_TURN + 1
REDRAW = KEEP + 1
ADD = REDRAW + 1
TAKE0 = ADD + 1
FREE0 = TAKE0 + MAXP * MAXP * 3
STEAL0 = FREE0 + 3
STEALSUP0 = STEAL0 + MAXP * 3
KILL0 = STEALSUP0 + 3
TOSOL0 = KILL0 + MAXP * MAXP * 3
PAROLE0 = TOSOL0 + 3
VICDRUG0 = PAROLE0 + 3
VICSHANK0 = VICDRUG0 + MAXP
PLAY_STOLEN = VICSHANK0 + MAXP
KEEP_STOLEN = PLAY_STOLEN + 1
PICK0 = KEEP_STOLEN + 1
CH_PLAYER0 = PICK0 + 3
CH_SHANK0 = CH_PLAYER0 + MAXP
CH_DRUG0 = CH_SHANK0 + 3
CH_CARD0 = CH_DRUG0 + 3
CH_SHANKS0 = CH_CARD0 + NUM_KINDS  # several shank cards at once: + x*16 + y*4 + z (Cobra, Scorpion, Tarantula)
CH_DRUGS0 = CH_SHANKS0 + 64  # several drug chips at once: + green*16 + white*4 + brown
NUM_ACTIONS = CH_DRUGS0 + 64
BRIBE_FIRST, BRIBE_LAST = REDRAW, KILL0 + MAXP * MAXP * 3 - 1

_T = tuple(t.lower() for t in TYPES)
_D = tuple(d.split()[0] for d in DRUGS)  # green, white, brown


def fist(c: int, s: int, t: int) -> int:
    return FIST0 + c * 64 + s * 8 + t


def fist_counts(code: int) -> tuple[int, int, int]:
    """Returns (cobras, scorpions, tarantulas) of a fist code (without FIST0)."""
    return code >> 6, (code >> 3) & 7, code & 7


def gym(t: int, s: int, c: int) -> int:
    return GYM0 + t * 16 + s * 4 + c


def chip(i: int, j: int) -> int:
    if i > j:
        i, j = j, i
    return CHIP0 + i * 7 + j


def take(h: int, o: int, t: int) -> int:
    return TAKE0 + (h * MAXP + o) * 3 + t


def kill(h: int, o: int, t: int) -> int:
    return KILL0 + (h * MAXP + o) * 3 + t


def multi(base: int, counts) -> int:
    """Returns the chance outcome of several shank cards (base CH_SHANKS0) or drug chips (CH_DRUGS0)."""
    return base + counts[0] * 16 + counts[1] * 4 + counts[2]


def to_str(a: int) -> str:
    if a < FIST0:
        return f"choose {BLOCK_SLUGS[a]}"
    if a < GYM0:
        c, s, t = fist_counts(a - FIST0)
        return f"fist C{c} S{s} T{t}"
    if a < CAFE0:
        x = a - GYM0
        return f"gym T{x >> 4} S{(x >> 2) & 3} C{x & 3}"
    if a < CHIP0:
        x = a - CAFE0
        if x < 3:
            return f"buy shank {_T[x]}"
        if x < 6:
            return f"buy drug {_D[x - 3]}"
        if x < 9:
            return f"buy piece {_T[x - 6]}"
        return ("buy respect 2", "buy respect 1", "buy nothing")[x - 9]
    if a < CHIP_DONE:
        i, j = divmod(a - CHIP0, 7)
        return f"buy chip with {GOOD_NAMES[i]} + {GOOD_NAMES[j]}"
    if a == CHIP_DONE:
        return "done buying"
    if a == PAY_COMM:
        return "pay commissary"
    if a < DECLINE:
        return f"pay {_T[a - PAY_SHANK0]}-shank"
    if a == DECLINE:
        return "decline"
    if a == PASS:
        return "pass"
    if a == DRAW:
        return "draw"
    if a < END_TURN:
        return f"shank {_T[a - SHANK0]}"
    if a == END_TURN:
        return "end turn"
    if a == KEEP:
        return "keep card"
    if a == REDRAW:
        return "bribe redraw"
    if a == ADD:
        return "bribe extra card"
    if a < FREE0:
        x, t = divmod(a - TAKE0, 3)
        h, o = divmod(x, MAXP)
        return f"bribe take {_T[t]} of p{o} from p{h}"
    if a < STEAL0:
        return f"bribe free {_T[a - FREE0]}"
    if a < STEALSUP0:
        q, g = divmod(a - STEAL0, 3)
        return f"bribe steal {STEAL_GOODS[g]} from p{q}"
    if a < KILL0:
        return f"bribe steal {STEAL_GOODS[a - STEALSUP0]} from supply"
    if a < TOSOL0:
        x, t = divmod(a - KILL0, 3)
        h, o = divmod(x, MAXP)
        return f"bribe kill {_T[t]} of p{o} at p{h}"
    if a < PAROLE0:
        return f"solitary {_T[a - TOSOL0]}"
    if a < VICDRUG0:
        return f"parole {_T[a - PAROLE0]}"
    if a < VICSHANK0:
        return f"steal drug from p{a - VICDRUG0}"
    if a < PLAY_STOLEN:
        return f"steal shank from p{a - VICSHANK0}"
    if a == PLAY_STOLEN:
        return "play stolen"
    if a == KEEP_STOLEN:
        return "keep stolen"
    if a < CH_PLAYER0:
        return f"pick {_T[a - PICK0]}"
    if a < CH_SHANK0:
        return f"initiator p{a - CH_PLAYER0}"
    if a < CH_DRUG0:
        return f"shank card {_T[a - CH_SHANK0]}"
    if a < CH_CARD0:
        return f"drug chip {_D[a - CH_DRUG0]}"
    if a < CH_SHANKS0:
        return f"fight card {CARD_NAMES[a - CH_CARD0].lower()}"
    if a < CH_DRUGS0:
        x = a - CH_SHANKS0
        return f"shank cards C{x >> 4} S{(x >> 2) & 3} T{x & 3}"
    if a < NUM_ACTIONS:
        x = a - CH_DRUGS0
        return f"drug chips G{x >> 4} W{(x >> 2) & 3} B{x & 3}"
    raise ValueError(f"no San Quentin Kings action {a}")


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().split())


_BY_TEXT = {_norm(to_str(a)): a for a in range(NUM_ACTIONS)}
# A few friendly aliases.
_BY_TEXT.update({f"choose {n.lower()}": i for i, n in enumerate(("Shank", "Commissary", "New Arrival", "Drug", "Gym",
                                                                   "Cafeteria Trade", "Guard Influence"))})
_BY_TEXT.update({"choose cafeteria-trade": 5, "choose new arrival": 2, "keep": KEEP, "redraw": REDRAW})


def parse(text: str) -> int | None:
    """Returns the action named by ``text`` (legal or not), or None if it is not notation."""
    return _BY_TEXT.get(_norm(text))
