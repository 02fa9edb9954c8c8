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
    lines.append("")
    for q in range(view["players"]):
        tag = " (you)" if q == view["you"] else ""
        turn_mark = ">" if q == view["current"] and view["to_move"] is not None else " "
        lines.append(
            f"{turn_mark} Player {q}{tag}: {view['hand_sizes'][q]} cards, total {view['totals'][q]}, "
            f"rounds won {view['rounds_won'][q]}"
        )
    if view["to_move"] is not None and view["phase"] == "play":
        notes = []
        if view["played_this_turn"]:
            notes.append("has played this turn")
        if view["no_draw"]:
            notes.append("draws no card this turn (All Clear)")
        if view["stockpile"] == 0:
            notes.append(f"stockpile empty, {view['passes']} pass(es) in a row")
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
            lines.append(f"  Player {q}: {held} -> {last['scores'][q]}{won}")
    if "winners" in view:
        lines.append("")
        lines.append("Final ranking: " + " | ".join(", ".join(f"player {p}" for p in g) for g in view["ranking"]))
        lines.append("Winner(s): " + ", ".join(f"player {w}" for w in view["winners"]))
    if view["ability_rules"]:
        lines.append("")
        lines.append("Abilities:")
        lines.extend(f"  {k}: {v}" for k, v in view["ability_rules"].items())
    return "\n".join(lines)
