"""Kingpins rules.

Rulebook: ``shared/rulebooks/kingpins.txt`` (sections quoted in the tests).
Rulings and the designed deck: ``docs/rulings/kingpins.md`` (KP-D1 ..., KP-1 ...).

A round as a chain of nodes::

    DEAL (chance)    5 cards to each player, one at a time, then one card face up
                     on each of N, E, S, W (a Femme Fatale turned up is shuffled
                     back, ruling KP-3)
    PLAY (player)    any number of plays and stack moves, then "end turn"
    RUB_OUT (player) after an Enforcer: discard one card worth 6 or less, or keep
    COLLECT (chance) after a Bookie: the next player draws one card
    DRAW (chance)    the card drawn at the end of a turn
    -> the next player's PLAY; the round ends when a hand empties or, with the
       stockpile empty, when every player in a row ends a turn without a play.

Five rounds; the lowest total wins, then the most rounds won, then a share.
"""

from __future__ import annotations

import random
from itertools import repeat
from typing import Any

from ...core.api import CHANCE, TERMINAL, Game, Option
from ...core.errors import InvalidStateError
from ...core.registry import register
from . import actions as A
from .data import (
    AB_ALIBI,
    AB_ALL_CLEAR,
    AB_COLLECT,
    AB_LIE_LOW,
    AB_RUB_OUT,
    ABILITY,
    COPIES,
    FF_ALL_BITS,
    FF_BITS,
    FF_RED,
    FULL_DECK,
    HAND_SIZE,
    KIND_BITS,
    KINGPIN_BITS,
    KINGPIN_RANK,
    NUM_CARDS,
    NUM_KINDS,
    NUM_RANKED,
    ONTO,
    ONTO_BITS,
    RANK,
    ROUNDS,
    RUB_OUT_BITS,
    RUB_OUT_MAX_VALUE,
    STACK_NAMES,
    UNDER,
    UNDER_BITS,
    VALUE,
    add_card,
    card_label,
    count,
    is_canonical,
    kinds,
    remove_card,
)
from .state import COLLECT, DEAL, DRAW, END, PLAY, RUB_OUT, State

_EMPTY_STACKS: tuple[tuple[int, ...], ...] = ((),) * 8
_RANKED_BITS = (1 << NUM_RANKED) - 1
_UNDER_STRIDE = NUM_KINDS * 8
_DUP_KINDS = tuple(range(NUM_RANKED, NUM_KINDS))
# _CHUNK_ACTS[i][byte]: the chance actions of the ranked cards whose bits in byte i are set.
_CHUNK_ACTS = tuple(
    tuple(tuple(A.DEAL0 + 8 * i + j for j in range(8) if b >> j & 1) for b in range(256))
    for i in range(NUM_RANKED // 8)
)


@register
class Kingpins(Game):
    """Kingpins: shed your hand onto descending, alternating-colour stacks; lowest total wins."""

    id = "kingpins"
    name = "Kingpins"
    min_players = 2
    max_players = 4
    has_chance = True
    perfect_information = False
    zero_sum = False
    constant_sum = None  # set per instance: n / 2 (rank points)
    min_return = 0.0
    max_return = 1.0
    rulebook = "kingpins.txt"
    summary = (
        "1920s bootleggers shed their hands onto descending, alternating-colour stacks "
        "around the stockpile; five rounds, lowest total wins."
    )
    options = (
        Option(
            "abilities",
            True,
            (True, False),
            "true: the designed special abilities (All Clear, Collect, Rub Out, Alibi, Lie Low); "
            "false: the plain game, cards only score their values",
        ),
    )
    State = State
    figure_names = ("total", "rounds_won")
    conformance_games = 200
    # Rollouts stop when the round they are in is scored; the totals then say who is
    # likely to win (bot.standings_value), and the later deals are left to luck. So
    # cut, an iteration costs about half a millisecond: normal affords 400 of them
    # (0.2 s a move), which beat the heuristic 36 of 40 times where 100 won 25 of 40.
    search_hints = {"depth": 0, "normal": {"iterations": 400}, "hard": {"iterations": 2000}}
    conformance_hidden_every = 7

    def __init__(self, players: int, **options: Any) -> None:
        # Rank points: 1 for the best, 0 for the worst, evenly between; ties share the mean.
        self.constant_sum = players / 2
        self.num_players = players
        super().__init__(players, **options)
        self.abilities = bool(self.option_values["abilities"])
        self.hand_deal = HAND_SIZE * players
        self.setup_cards = self.hand_deal + 4

    def max_game_length(self) -> int:
        # Per round: the set-up deal (5n + 4 chance nodes); card plays and Rub Out choices
        # (every card leaves a hand at most once: <= 56 + 4); draws, Collect included (every
        # card is drawn at most once: <= 56); stack moves (a move merges two stacks and only a
        # play to an empty space makes a new one: <= 8 + 56). Every turn ends with one
        # 'end turn': turns with a draw, a play or a move number at most 56 + 56 + 64
        # ("active"); between two of them at most n - 1 turns are passes, and n passes in a
        # row end the round, so passes <= n * (active + 1).
        n = self.num_players
        active = 56 + 56 + 64
        per_round = (5 * n + 4) + 60 + 56 + 64 + active + n * (active + 1)
        return ROUNDS * per_round

    # ---- set-up -----------------------------------------------------------------
    def new_initial_state(self) -> State:
        n = self.num_players
        return State(DEAL, 0, 0, 0, (0,) * n, FULL_DECK, _EMPTY_STACKS, 0, False, 0, False,
                     (0,) * n, (), (0,) * n)

    # ---- whose turn -------------------------------------------------------------
    def current_player(self, s: State) -> int:
        ph = s.phase
        if ph == PLAY or ph == RUB_OUT:
            return s.current
        if ph == END:
            return TERMINAL
        return CHANCE

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        ph = s.phase
        if ph > COLLECT:
            return super().chance_outcomes(s)
        u = s.unseen
        if ph == DEAL and s.deal >= self.hand_deal:
            # Ruling KP-3: a Femme Fatale turned up for a recruitment stack is shuffled back.
            u &= ~FF_ALL_BITS
        p = 1.0 / u.bit_count()
        c = _CHUNK_ACTS
        acts = (c[0][u & 255] + c[1][u >> 8 & 255] + c[2][u >> 16 & 255] + c[3][u >> 24 & 255]
                + c[4][u >> 32 & 255] + c[5][u >> 40 & 255])
        out = list(zip(acts, repeat(p, len(acts))))
        if u >> NUM_RANKED & 15:
            for k in _DUP_KINDS:
                if u >> k & 1:
                    out.append((A.DEAL0 + k, p * (1 + (u >> (k + 4) & 1))))
        return out

    # ---- legal actions ----------------------------------------------------------
    def legal_actions(self, s: State, player: int | None = None) -> list[int]:
        ph = s.phase
        if ph == PLAY:
            if player is not None and player != s.current:
                return []
            return self._play_actions(s.hands[s.current], s.stacks)
        if ph == RUB_OUT:
            if player is not None and player != s.current:
                return []
            out = []
            m = s.hands[s.current] & RUB_OUT_BITS
            while m:
                low = m & -m
                out.append(A.DISCARD0 + low.bit_length() - 1)
                m ^= low
            out.append(A.KEEP)
            return out
        if ph == END or player is not None:
            return []
        return [a for a, _ in self.chance_outcomes(s)]

    def _play_actions(self, hand: int, stacks: tuple[tuple[int, ...], ...]) -> list[int]:
        out = []
        tops = 0  # the top cards, as bits of their kinds
        t = 0
        for st in stacks:
            if st:
                top = st[-1]
                tops |= 1 << top
                if hand & ONTO_BITS[top]:
                    for k in ONTO[top]:
                        if hand >> k & 1:
                            out.append(k * 8 + t)
            else:
                # An empty original recruitment stack takes any card, a Femme Fatale too
                # (ruling KP-4: the dead stack is the player's choice); an empty corner
                # takes only a kingpin.
                m = hand & (KIND_BITS if t < 4 else KINGPIN_BITS)
                while m:
                    low = m & -m
                    out.append((low.bit_length() - 1) * 8 + t)
                    m ^= low
            t += 1
        ff = hand & FF_BITS
        a = 0
        for st in stacks:
            if st:
                b = st[0]
                up = UNDER_BITS[b]  # the kinds one rank above the bottom card, opposite colour
                if up & tops:
                    # This stack may move onto each stack whose top card is in ``up``.
                    for d in range(8):
                        sd = stacks[d]
                        if sd and up >> sd[-1] & 1 and d != a:
                            out.append(A.MOVE0 + a * 8 + d)
                if ff and up & hand:
                    for k in UNDER[b]:
                        if hand >> k & 1:
                            for c in (0, 1):
                                if ff >> (FF_RED + c) & 1:
                                    out.append(A.UNDER0 + c * _UNDER_STRIDE + k * 8 + a)
            a += 1
        out.append(A.END_TURN)
        out.sort()
        return out

    # ---- apply ------------------------------------------------------------------
    def apply(self, s: State, action: int, player: int | None = None) -> State:
        ph = s.phase
        if ph == PLAY:
            return self._apply_play(s, action)
        if ph == RUB_OUT:
            if action == A.KEEP:
                return State(PLAY, s.round, s.current, s.deal, s.hands, s.unseen, s.stacks,
                             s.discards, True, 0, s.no_draw, s.totals, s.history, s.last_hands)
            k = action - A.DISCARD0
            cur = s.current
            hand = remove_card(s.hands[cur], k)
            hands = s.hands[:cur] + (hand,) + s.hands[cur + 1:]
            discards = add_card(s.discards, k)
            if not hand:
                return self._end_round(s, hands, s.stacks, discards)
            return State(PLAY, s.round, cur, s.deal, hands, s.unseen, s.stacks, discards, True, 0,
                         s.no_draw, s.totals, s.history, s.last_hands)
        return self._apply_chance(s, action - A.DEAL0)

    def _apply_chance(self, s: State, k: int) -> State:
        n = self.num_players
        unseen = remove_card(s.unseen, k)
        ph = s.phase
        if ph == DRAW:
            cur = s.current
            hands = s.hands[:cur] + (add_card(s.hands[cur], k),) + s.hands[cur + 1:]
            nxt = cur + 1
            if nxt == n:
                nxt = 0
            return State(PLAY, s.round, nxt, s.deal, hands, unseen, s.stacks, s.discards, False,
                         s.passes, False, s.totals, s.history, s.last_hands)
        if ph == COLLECT:
            q = (s.current + 1) % n
            hands = s.hands[:q] + (add_card(s.hands[q], k),) + s.hands[q + 1:]
            if not hands[s.current]:
                # Ruling KP-9: the Bookie was the last card; its Collect resolved, the round ends.
                return self._end_round(s, hands, s.stacks, s.discards, unseen)
            return State(PLAY, s.round, s.current, s.deal, hands, unseen, s.stacks, s.discards,
                         True, 0, s.no_draw, s.totals, s.history, s.last_hands)
        # DEAL
        d = s.deal
        hands, stacks = s.hands, s.stacks
        if d < self.hand_deal:
            q = d % n
            hands = hands[:q] + (add_card(hands[q], k),) + hands[q + 1:]
        else:
            t = d - self.hand_deal
            stacks = stacks[:t] + ((k,),) + stacks[t + 1:]
        d += 1
        phase = PLAY if d == self.setup_cards else DEAL
        return State(phase, s.round, s.current, d, hands, unseen, stacks, s.discards, False, 0,
                     False, s.totals, s.history, s.last_hands)

    def _apply_play(self, s: State, action: int) -> State:
        cur = s.current
        stacks = s.stacks
        if action < A.UNDER0:
            # A card onto a stack: one lower in the opposite colour, a Hideout on a 1, any card
            # on an empty original stack, or a kingpin in an empty corner.
            k, t = divmod(action, 8)
            hand = remove_card(s.hands[cur], k)
            stacks = stacks[:t] + (stacks[t] + (k,),) + stacks[t + 1:]
            discards = s.discards
        elif action < A.MOVE0:
            # A Femme Fatale is discarded to slip a card under a stack's bottom card.
            c, rest = divmod(action - A.UNDER0, _UNDER_STRIDE)
            k, t = divmod(rest, 8)
            hand = remove_card(remove_card(s.hands[cur], k), FF_RED + c)
            stacks = stacks[:t] + ((k,) + stacks[t],) + stacks[t + 1:]
            discards = add_card(s.discards, FF_RED + c)
        elif action < A.END_TURN:
            a, b = divmod(action - A.MOVE0, 8)
            st = list(stacks)
            st[b] = st[b] + st[a]
            st[a] = ()
            return State(PLAY, s.round, cur, s.deal, s.hands, s.unseen, tuple(st), s.discards,
                         True, 0, s.no_draw, s.totals, s.history, s.last_hands)
        else:
            return self._end_turn(s)
        hands = s.hands[:cur] + (hand,) + s.hands[cur + 1:]
        if not hand:
            # Ruling KP-9: "When you play a card, resolve its special ability (if any)
            # immediately", then "if, after playing a card, you have none left in hand, the
            # round ends". Of the abilities only Collect can still act (Rub Out has no card
            # left to discard, All Clear no draw left to save): the next player draws first.
            if self.abilities and ABILITY[k] == AB_COLLECT and s.unseen:
                return State(COLLECT, s.round, cur, s.deal, hands, s.unseen, stacks, discards, True, 0,
                             s.no_draw, s.totals, s.history, s.last_hands)
            return self._end_round(s, hands, stacks, discards)
        phase = PLAY
        no_draw = s.no_draw
        if self.abilities:
            ab = ABILITY[k]
            if ab == AB_COLLECT:
                if s.unseen:
                    phase = COLLECT
            elif ab == AB_RUB_OUT:
                if hand & RUB_OUT_BITS:
                    phase = RUB_OUT
            elif ab == AB_ALL_CLEAR:
                no_draw = True
        return State(phase, s.round, cur, s.deal, hands, s.unseen, stacks, discards, True, 0,
                     no_draw, s.totals, s.history, s.last_hands)

    def _end_turn(self, s: State) -> State:
        if s.unseen and not s.no_draw:
            return State(DRAW, s.round, s.current, s.deal, s.hands, s.unseen, s.stacks, s.discards,
                         s.played, s.passes, s.no_draw, s.totals, s.history, s.last_hands)
        passes = s.passes
        if not s.played and not s.unseen:
            passes += 1
            if passes >= self.num_players:
                return self._end_round(s, s.hands, s.stacks, s.discards)
        nxt = (s.current + 1) % self.num_players
        return State(PLAY, s.round, nxt, s.deal, s.hands, s.unseen, s.stacks, s.discards, False,
                     passes, False, s.totals, s.history, s.last_hands)

    def _end_round(self, s: State, hands: tuple[int, ...], stacks: tuple, discards: int,
                   unseen: int | None = None) -> State:
        """Scores the hands and starts the next round's deal, or ends the game after the fifth."""
        n = self.num_players
        scores = tuple(self.hand_score(h) for h in hands)
        totals = tuple(a + b for a, b in zip(s.totals, scores))
        history = s.history + (scores,)
        r = s.round + 1
        if r >= ROUNDS:
            return State(END, s.round, s.current, s.deal, hands, s.unseen if unseen is None else unseen,
                         stacks, discards, False,
                         0, False, totals, history, hands)
        return State(DEAL, r, r % n, 0, (0,) * n, FULL_DECK, _EMPTY_STACKS, 0, False, 0, False,
                     totals, history, hands)

    # ---- scoring ----------------------------------------------------------------
    def hand_score(self, hand: int) -> int:
        """Returns a hand's round score: card values, then Alibi and Lie Low (with abilities)."""
        ks = kinds(hand)
        if not self.abilities:
            return sum(VALUE[k] for k in ks)
        if ks and all(ABILITY[k] == AB_LIE_LOW for k in ks):
            return 0  # Lie Low: nothing but Hideouts left
        lawyers = [k for k in ks if ABILITY[k] == AB_ALIBI]
        others = sorted((VALUE[k] for k in ks if ABILITY[k] != AB_ALIBI), reverse=True)
        return sum(VALUE[k] for k in lawyers) + sum(others[len(lawyers):])

    def round_winners(self, scores: tuple[int, ...]) -> tuple[int, ...]:
        """Returns the players who won a round: the lowest round score (ruling KP-7)."""
        best = min(scores)
        return tuple(p for p, v in enumerate(scores) if v == best)

    def rounds_won(self, s: State) -> tuple[int, ...]:
        won = [0] * self.num_players
        for scores in s.history:
            for p in self.round_winners(scores):
                won[p] += 1
        return tuple(won)

    def ranking(self, s: State) -> list[list[int]]:
        """Returns the players in finishing order, tied players grouped: lowest total first,
        then most rounds won (rulebook, Game End); players equal on both share a place."""
        won = self.rounds_won(s)
        keys = {p: (s.totals[p], -won[p]) for p in range(self.num_players)}
        groups: list[list[int]] = []
        for p in sorted(keys, key=lambda q: (keys[q], q)):
            if groups and keys[groups[-1][0]] == keys[p]:
                groups[-1].append(p)
            else:
                groups.append([p])
        return groups

    def winners(self, s: State) -> tuple[int, ...]:
        return tuple(self.ranking(s)[0]) if s.phase == END else ()

    def returns(self, s: State) -> tuple[float, ...]:
        n = self.num_players
        if s.phase != END:
            return (0.0,) * n
        out = [0.0] * n
        place = 0
        for group in self.ranking(s):
            # Places place .. place+len-1 earn (n-1-i)/(n-1); a tied group shares the mean.
            pts = sum((n - 1 - i) / (n - 1) for i in range(place, place + len(group))) / len(group)
            for p in group:
                out[p] = pts
            place += len(group)
        return tuple(out)

    # ---- the story of the end ---------------------------------------------------
    def outcome(self, s: State) -> dict:
        from .view import outcome

        return outcome(self, s)

    def figures(self, s: State) -> dict[str, tuple[float, ...]]:
        from .view import figures

        return figures(self, s)

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
        return A.to_str(action, s.stacks)

    def parse_action(self, s: State, text: str, player: int | None = None) -> int:
        action = A.parse(text)
        if action is None:
            return super().parse_action(s, text, player)
        return action

    def explain_illegal(self, s: State, action: int, player: int) -> str:
        if s.phase == RUB_OUT:
            return (f"after the Enforcer (Rub Out) you either discard one card worth "
                    f"{RUB_OUT_MAX_VALUE} or less from your hand or keep")
        if s.phase != PLAY:
            return "it is not a moment for a move"
        hand = s.hands[player]
        if action < A.UNDER0:
            k, t = divmod(action, 8)
            st = s.stacks[t]
            if not count(hand, k):
                return f"you do not hold {card_label(k)}"
            if k in (FF_RED, FF_RED + 1):
                return ("a Femme Fatale has no rank: she goes only to an empty original recruitment "
                        "stack (N, E, S, W), or is discarded to slip a card under a stack "
                        "('<card> under <stack> with <Fr|Fb>')")
            if not st:
                if t >= 4:
                    return f"only a kingpin (12) starts a syndicate in the empty corner {STACK_NAMES[t]}"
                return "it is not legal here"  # pragma: no cover - any card fits an empty original stack
            top = st[-1]
            if RANK[k] == 0:
                return f"a Hideout goes only on a 1 of the opposite colour; {STACK_NAMES[t]} shows {card_label(top)}"
            return (f"a card goes on a stack only one rank lower and in the opposite colour; "
                    f"{STACK_NAMES[t]} shows {card_label(top)}")
        if action < A.MOVE0:
            c, rest = divmod(action - A.UNDER0, _UNDER_STRIDE)
            k, t = divmod(rest, 8)
            st = s.stacks[t]
            if not count(hand, FF_RED + c):
                return f"you hold no {card_label(FF_RED + c)} to discard"
            if k in (FF_RED, FF_RED + 1) or not count(hand, k):
                return f"you do not hold {card_label(k)} (and a Femme Fatale plays a different card)"
            if not st:
                return f"{STACK_NAMES[t]} is empty: there is no bottom card to slip a card under"
            return (f"the card slipped under must be one rank higher than the bottom card and of the "
                    f"opposite colour; the bottom of {STACK_NAMES[t]} is {card_label(st[0])}")
        if action < A.END_TURN:
            a, b = divmod(action - A.MOVE0, 8)
            if a == b:
                return "a stack cannot be moved onto itself"
            if not s.stacks[a]:
                return f"{STACK_NAMES[a]} is empty"
            if not s.stacks[b]:
                return f"{STACK_NAMES[b]} is empty; a stack moves only onto another stack's top card"
            return (f"the bottom card of {STACK_NAMES[a]} ({card_label(s.stacks[a][0])}) must be one rank "
                    f"lower and opposite in colour to the top card of {STACK_NAMES[b]} "
                    f"({card_label(s.stacks[b][-1])})")
        if action < A.DEAL0:
            return "discarding or keeping is chosen only after playing an Enforcer (Rub Out)"
        return "cards are dealt by chance, not chosen"

    # ---- bots ---------------------------------------------------------------------
    def heuristic_action(self, s: State, player: int, rng: random.Random) -> int:
        from .bot import heuristic_action

        return heuristic_action(self, s, player, rng)

    def evaluate(self, s: State) -> tuple[float, ...] | None:
        from .bot import standings_value

        return standings_value(self, s)

    # ---- checks -------------------------------------------------------------------
    def validate_state(self, s: State) -> None:
        n = self.num_players
        ints = (s.phase, s.round, s.current, s.deal, s.passes, *s.totals)
        if any(type(x) is not int for x in ints) or type(s.played) is not bool or type(s.no_draw) is not bool:
            raise InvalidStateError("phase, round, current, deal, passes and totals are ints; played, no_draw bools")
        if s.phase not in (DEAL, DRAW, COLLECT, PLAY, RUB_OUT, END):
            raise InvalidStateError(f"unknown phase {s.phase}")
        if not (0 <= s.round < ROUNDS and 0 <= s.current < n and 0 <= s.passes < n):
            raise InvalidStateError("round, current player or passes out of range")
        if not 0 <= s.deal <= self.setup_cards or (s.phase not in (DEAL, END) and s.deal != self.setup_cards):
            raise InvalidStateError(f"deal counter {s.deal} out of range")
        if len(s.hands) != n or len(s.totals) != n or len(s.last_hands) != n or len(s.stacks) != 8:
            raise InvalidStateError(f"hands, totals and last hands need {n} entries; stacks 8")
        done = s.round + (s.phase == END)
        if len(s.history) != done or any(len(h) != n for h in s.history):
            raise InvalidStateError(f"history must hold one score per player for each of {done} rounds")
        if tuple(sum(h[p] for h in s.history) for p in range(n)) != s.totals:
            raise InvalidStateError("totals are not the sums of the round scores")
        sets = [*s.hands, s.unseen, s.discards, *s.last_hands]
        if not all(isinstance(m, int) and not isinstance(m, bool) and is_canonical(m) for m in sets):
            raise InvalidStateError("a card set is not a valid 56-card mask")
        counts = [0] * NUM_KINDS
        for m in (*s.hands, s.unseen, s.discards):
            for k in kinds(m):
                counts[k] += 1
        for t, st in enumerate(s.stacks):
            for i, k in enumerate(st):
                if not isinstance(k, int) or not 0 <= k < NUM_KINDS:
                    raise InvalidStateError(f"stack {STACK_NAMES[t]} holds an unknown card {k!r}")
                counts[k] += 1
                if i and k not in ONTO[st[i - 1]]:
                    raise InvalidStateError(f"stack {STACK_NAMES[t]} is not descending in alternating colours")
            if t >= 4 and st and RANK[st[0]] != KINGPIN_RANK:
                raise InvalidStateError(f"corner {STACK_NAMES[t]} must start with a kingpin")
        if counts != list(COPIES) or sum(counts) != NUM_CARDS:
            raise InvalidStateError(f"the cards do not add up to the deck: counts by kind {counts}")
        if s.phase == COLLECT and not s.unseen:
            raise InvalidStateError("the Bookie's draw needs a card in the stockpile")
        if s.phase == DRAW and not s.unseen:
            raise InvalidStateError("a draw needs a card in the stockpile")
        if s.phase in (PLAY, RUB_OUT, DRAW) and not s.hands[s.current]:
            # (At COLLECT it may: a Bookie played as the last card still acts, ruling KP-9.)
            raise InvalidStateError("the current player has no card: the round should have ended")
