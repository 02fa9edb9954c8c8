"""A text picture of a King's Kilt view (never of a state: it cannot show a secret)."""

from __future__ import annotations

_ABBR = {
    "Bruce": "BRU", "Buchanan": "BUC", "Douglas": "DOU", "Hamilton": "HAM",
    "MacBeth": "MCB", "MacLeod": "MCL", "Stewart": "STE", "Wallace": "WAL",
}


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _cell(card: dict | None) -> str:
    if card is None:
        return "  .   "
    return f"[{_ABBR[card['clan']]}{'*' if card['leader'] else ' '}]"


def render(view: dict) -> str:
    """Returns the pyramid, the draw pile and the player's cards as text."""
    lines = []
    pyr = view["pyramid"]
    cells = view["cells"]
    idx = 0
    width = 6 * 7
    for r in range(6):
        row_cards = pyr[idx : idx + r + 1]
        row_names = cells[idx : idx + r + 1]
        label = f"{view['row_names'][r]:<10}"
        body = " ".join(_cell(c) for c in row_cards)
        names = " ".join(f" {n:^4} " for n in row_names)
        lines.append(label + body.center(width))
        lines.append(" " * 10 + names.center(width))
        idx += r + 1
    pile = view["draw_pile"]
    top = pile["top"]
    top_s = f"{top['clan']}{' leader' if top['leader'] else ''}" if top else "-"
    lines.append("")
    size = pile["size"]
    lines.append(f"Draw pile: top {top_s}, {_count(size, 'card') if size is not None else '? cards'}.  "
                 f"Discards: {sum(view['discards'].values())}.  Removed: {len(view['removed'])}.")
    if pile.get("known"):
        lines.append("The draw pile is reshuffled discards: " + ", ".join(f"{k} x{v}" for k, v in pile["known"].items()))
    lines.append("Legend: [BRU*] a card (* = clan leader), . an empty cell; " + ", ".join(
        f"{a} {c}" for c, a in _ABBR.items()))
    if view["vacuum"]:
        lines.append(f"Power vacuum at {view['vacuum']}: fill it from one of the two cards beneath.")
    rewards = []
    if view["noblemen_reward"] is not None:
        rewards.append(f"Noblemen reward: player {view['noblemen_reward']}")
    if view["guardians_reward"] is not None:
        rewards.append(f"Guardians reward: player {view['guardians_reward']}")
    if rewards:
        lines.append("; ".join(rewards))
    for q in range(view["players"]):
        tag = " (you)" if q == view["you"] else ""
        status = " (passed)" if view["passed"][q] else ""
        rev = ", ".join(view["revealed_family"][q]) or "none"
        lines.append(f"Player {q}{tag}: {_count(view['hand_sizes'][q], 'influence card')}, "
                     f"family face up: {rev}{status}")
    if "family" in view:
        fam = ", ".join(f"{f['clan']}{' (face up)' if f['revealed'] else ''}" for f in view["family"])
        infl = ", ".join(f"{k} x{v}" for k, v in view["influence"].items()) or "none"
        lines.append(f"Your family: {fam}")
        lines.append(f"Your influence: {infl}")
    if "scores" in view:
        lines.append("")
        for q in range(view["players"]):
            lines.append(f"Player {q}: family {', '.join(view['families'][q])} -> {_count(view['scores'][q], 'point')}")
        if view.get("outcome"):
            lines.append(view["outcome"][0].upper() + view["outcome"][1:] + ".")
        else:
            lines.append("Winner(s): " + ", ".join(f"player {w}" for w in view["winners"]))
    return "\n".join(lines)
