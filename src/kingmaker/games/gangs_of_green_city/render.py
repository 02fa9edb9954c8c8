"""A text picture of a Gangs of Green City view (never of a state), with a legend of its symbols."""

from __future__ import annotations

_SHORT = ("T", "L", "H", "O")  # Tonys, Louies, left Hand, Officials


def _n(k: int, word: str, plural: str | None = None) -> str:
    """Returns '1 card', '2 cards' ('1 riot', '0 spheres')."""
    return f"{k} {word if k == 1 else (plural or word + 's')}"


def legend(view: dict) -> str:
    """Returns the legend of the symbols ``render`` uses."""
    gangs = [f"{_SHORT[d['id']]} {d['gang']} ({d['colour']})" for d in view["districts"]]
    return "\n".join([
        "Legend:",
        "  " + ", ".join(gangs[:2]) + ",",
        "  " + ", ".join(gangs[2:]) + ";",
        "  T2 = two spheres of The Tonys on that place (H3: three of The Left Hand)",
        "  p0..p4 = the players' pawns; SAFE HOUSE = a safe house there",
        "  [2] = the escalation meter's place (gang cards drawn a turn)",
        "  10* = a hero pile of 10 cards still holding its ESCALATION! card",
        "  layer = an ESCALATION!'s shuffled gang discards: known cards, any order",
    ])


def render(view: dict) -> str:
    """Returns the districts with their spheres, safe houses and pawns, the meters, the decks and the hands.

    Sphere counts read T/L/H/O for The Tonys, The Louies, The Left Hand and The Officials
    (the legend at the end says so); places with no sphere, safe house or pawn are only counted.
    """
    m = view["map"]
    names = m["names"]
    spheres = view["spheres"]
    safe = set(view["safe_houses"]["ids"])
    pawns: dict[int, list[int]] = {}
    for q, pos in enumerate(view["pawns"]):
        pawns.setdefault(pos, []).append(q)
    lines = []
    meters = view["meters"]
    track = meters["escalation_track"]
    esc = "".join(f"[{x}]" if i == meters["escalation"] else f" {x} " for i, x in enumerate(track))
    lines.append(
        f"Escalation meter {esc}  ({_n(meters['gang_cards_per_turn'], 'gang card')} a turn)   "
        f"War meter {meters['war']}/{meters['war_loss']} ({_n(meters['war'], 'riot')}; the {meters['war_loss']}th loses)"
    )
    for d in view["districts"]:
        status = "DEFEATED" if d["defeated"] else ("recruitment ended" if d["recruitment_ended"] else "recruiting")
        lines.append("")
        lines.append(
            f"== {d['name']} ({d['gang']}, {d['colour']}, {_SHORT[d['id']]}): "
            f"{_n(d['on_board'], 'sphere')} on the board, {d['supply']} in the supply, {status}"
        )
        quiet = 0
        for i, name in enumerate(names):
            if m["district"][i] != d["id"]:
                continue
            counts = spheres.get(name)
            if not counts and i not in safe and i not in pawns:
                quiet += 1
                continue
            cubes = " ".join(f"{_SHORT[g]}{c}" for g, c in enumerate(counts) if c) if counts else ""
            tags = []
            if i in safe:
                tags.append("SAFE HOUSE")
            if i in pawns:
                tags.append(("pawns " if len(pawns[i]) > 1 else "pawn ") + ",".join(f"p{q}" for q in pawns[i]))
            lines.append(f"  {name:<28}{cubes:<14}{'  '.join(tags)}".rstrip())
        if quiet:
            lines.append(f"  ({_n(quiet, 'quiet place')})")
    park = m["park"]
    if park in pawns:
        lines.append(f"\n  {names[park]}: " + ("pawns " if len(pawns[park]) > 1 else "pawn ")
                     + ",".join(f"p{q}" for q in pawns[park]))
    lines.append("")
    lines.append(f"Safe houses: {len(safe)} placed, {view['safe_houses']['supply']} in the supply")
    hd, gd = view["hero_deck"], view["gang_deck"]
    piles = ", ".join(f"{p['cards']}{'*' if p['escalation_inside'] else ''}" for p in hd["piles"] if p["cards"])
    lines.append(f"Hero draw pile: {_n(hd['draw_pile'], 'card')}" + (f" in piles {piles} (top first)" if piles else ""))
    layers = gd["layers_on_top"]
    text = f"Gang draw pile: {_n(gd['draw_pile'], 'card')}"
    for i, layer in enumerate(layers):
        text += f"; {'on top' if i == 0 else 'under it'}, layer {i + 1} ({_n(len(layer), 'card')}, any order): {', '.join(layer)}"
    if layers:
        text += f"; then {_n(gd['unseen_below'], 'unseen card')}"
    lines.append(text)
    lines.append(f"Gang discard pile: {', '.join(gd['discard']) or '-'}"
                 + (f"; removed from the game: {', '.join(gd['removed'])}" if gd["removed"] else ""))
    if view["quiet_night"]:
        lines.append("Quiet Night: the next Gang Leader phase is skipped")
    lines.append("")
    for p in view["players_info"]:
        you = " (you)" if p["seat"] == view["you"] else ""
        turn = " <- turn" if p["seat"] == view["current"] else ""
        lost = p["moves_lost_next_turn"]
        tired = f", loses {_n(lost, 'move')} next turn" if lost else ""
        lines.append(f"p{p['seat']}{you} {p['cast'] or '?'} at {p['pawn_at']}{tired}{turn}")
        lines.append(f"    hand ({_n(len(p['hand']), 'card')}): {', '.join(p['hand']) or '-'}")
    if view["result"]:
        lines.append(f"\nGame over: {view.get('outcome') or view['result'].upper() + ' (' + str(view['reason']) + ')'}")
    else:
        extra = ""
        if view["discard_pending"]:
            dp = view["discard_pending"]
            extra = f"; p{dp['player']} must discard {dp['count']} ({dp['why']})"
        if view.get("pending_weakness"):
            pw = view["pending_weakness"]
            extra += f"; then {pw['cast']}'s weakness for {pw['poi']}"
        if view["respite_pending"]:
            rp = view["respite_pending"]
            extra = f"; p{rp['player']} chooses the target of {rp['name']}"
        lines.append(f"\nStage: {view['stage']}, {_n(view['moves_left'], 'move')} left{extra}")
    lines.append("")
    lines.append(legend(view))
    return "\n".join(lines)
