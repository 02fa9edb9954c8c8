"""A text picture of a Kingpins view (never of a state: it cannot show a secret).

The eight stacks stand around the stockpile as on the table::

    NW        N        NE
    W     <stockpile>  E
    SW        S        SE

Each cell shows the stack's bottom card, its top card and its size; the full
stacks (bottom first) follow below. Cards: M/D red, V/B black families with
their rank, Fr/Fb Femme Fatale, Hr/Hb Hideout; a * marks red.
"""

from __future__ import annotations

import textwrap

_GRID = (("NW", "N", "NE"), ("W", None, "E"), ("SW", "S", "SE"))
_W = 22


def _code(card: dict) -> str:
    return card["code"] + ("*" if card["colour"] == "red" else "")


def _cell(stack: dict) -> str:
    cards = stack["cards"]
    if not cards:
        what = "(empty)" if stack["kind"] == "recruitment" else "(open corner)"
    elif len(cards) == 1:
        what = _code(cards[0])
    else:
        what = f"{_code(cards[0])}..{_code(cards[-1])} ({len(cards)})"
    return f"{stack['name']}: {what}"


def _n(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


LEGEND = (
    "Cards: M Moretti, D Doyle (red), V Volkov, B Brennan (black) + rank,",
    "  12 the kingpin; Fr/Fb Femme Fatale, Hr/Hb Hideout (red/black);",
    "  * marks a red card; a stack shows bottom..top (number of cards).",
)


def _card_long(card: dict) -> str:
    rank = f" {card['rank']}" if card.get("rank") is not None else ""
    fam = f"{card['family']} " if card.get("family") else ""
    ab = f", {card['ability']}" if card.get("ability") else ""
    return f"{card['code']} {fam}{card['name']} ({card['colour']}{rank}, worth {card['value']}{ab})"


def render(view: dict) -> str:
    """Returns the table, the scores and the viewer's hand as text."""
    by_name = {st["name"]: st for st in view["stacks"]}
    who = view["to_move"]
    turn = "chance" if who == "chance" else ("game over" if who is None else f"player {who} to move")
    lines = [
        f"Kingpins - round {view['round']} of {view['rounds']} - {turn} ({view['phase']})"
        + ("" if view["abilities"] else " - abilities off"),
        "",
    ]
    for row in _GRID:
        cells = []
        for name in row:
            if name is None:
                cells.append(f"<stockpile {view['stockpile']}>".center(_W))
            else:
                cells.append(_cell(by_name[name]).ljust(_W))
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    for st in view["stacks"]:
        if st["cards"]:
            lines.append(f"  {st['name']:>2}: " + " ".join(_code(c) for c in st["cards"]))
    if view["discards"]:
        lines.append("Discards: " + " ".join(_code(c) for c in view["discards"]))
    lines.extend(LEGEND)
    lines.append("")
    for q in range(view["players"]):
        tag = " (you)" if q == view["you"] else ""
        turn_mark = ">" if q == view["current"] and view["to_move"] is not None else " "
        lines.append(
            f"{turn_mark} Player {q}{tag}: {_n(view['hand_sizes'][q], 'card')}, total "
            f"{_n(view['totals'][q], 'point')}, rounds won {view['rounds_won'][q]}"
        )
    if view["to_move"] is not None and view["phase"] == "play":
        notes = []
        if view["played_this_turn"]:
            notes.append("has played this turn")
        if view["no_draw"]:
            notes.append("draws no card this turn (All Clear)")
        if view["stockpile"] == 0:
            passes = view["passes"]
            notes.append(f"stockpile empty, {passes} {'pass' if passes == 1 else 'passes'} in a row")
        if notes:
            lines.append("  (" + "; ".join(notes) + ")")
    if "hand" in view:
        lines.append("")
        lines.append("Your hand:")
        lines.extend("  " + _card_long(c) for c in view["hand"])
    last = view.get("last_round")
    if last:
        lines.append("")
        lines.append(f"Round {last['round']} scored:")
        for q in range(view["players"]):
            held = " ".join(_code(c) for c in last["hands"][q]) or "-"
            won = " (round won)" if q in last["winners"] else ""
            lines.append(f"  Player {q}: {held} -> {_n(last['scores'][q], 'point')}{won}")
    if "winners" in view:
        lines.append("")
        lines.append("Final ranking (lowest total first, then most rounds won):")
        lines.append("  " + " | ".join(", ".join(f"player {p}" for p in g) for g in view["ranking"]))
        if view.get("outcome"):
            text = view["outcome"]
            lines.extend(textwrap.wrap(text[:1].upper() + text[1:] + ".", 74, subsequent_indent="  "))
    if view["ability_rules"]:
        lines.append("")
        lines.append("Abilities:")
        for k, v in view["ability_rules"].items():
            lines.extend(textwrap.wrap(f"{k}: {v}", 74, initial_indent="  ", subsequent_indent="      "))
    return "\n".join(lines)
