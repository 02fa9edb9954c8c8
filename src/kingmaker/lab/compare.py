"""Two studies on the same deals, compared game by game (``kingmaker lab compare A B``).

A lab game is seeded from its study's seed, its cell's key and its index only
(``study.cell_seed``), so two studies with one seed and the same cells deal
the same games, whatever agents they seat. Pairing them deal by deal removes
the luck of the deal from a comparison: of the deals the two ended
differently, how many went each way, with the exact sign test. At 200 games a
cell that tells apart agents whose rates an unpaired test cannot (the Gangs of
Green City search team against its own rollout policy, for one).

``compare_runs(a, b)`` returns plain data; the CLI prints it as a Markdown
table or JSON. A game's value is its contribution to the study's headline
rate (``analysis``): 1 or 0 for the team in a co-operative game; else the
share of the win of the seats the study's first agent holds (a shared win
counts 1/k), or of the first seat when every seat holds the same agent.

Errors (``StoreError``, code ``record/invalid``): a directory that is not a
results directory, runs of different games, no deal in common, or a pair of
games whose seeds differ (the studies were not played on the same deals).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .analysis import headline_name, headline_share, win_shares
from .stats import sign_test, wilson
from .store import StoreError, load_run, read_rows
from .study import Study

__all__ = ["compare_runs", "paired_cells", "render_comparison", "shared_deals"]


def _values(study: Study, rows: list[dict], cooperative: bool, max_return: float) -> dict[tuple[str, int], tuple]:
    """Each game's (headline value, seed, players), by (cell key, index)."""
    out = {}
    for r in rows:
        won, seats = headline_share(r, win_shares(r, cooperative, max_return), study, cooperative)
        out[(r["cell_key"], r["index"])] = (won / seats if seats else 0.0, r["seed"], r["players"])
    return out


def _load(out: str | Path) -> tuple[Study, list[dict], float]:
    study, _ = load_run(out)
    table, cpu = read_rows((Path(out) / "parts").glob("*.parquet"))
    if table is None:
        raise StoreError(f"{out} holds no games yet: run its study first")
    return study, table.to_pylist(), cpu


def shared_deals(va: dict, vb: dict) -> tuple[list, tuple | None]:
    """Returns the deals two runs' games ``va`` and ``vb`` (``_values``) share, and the first of
    them whose seeds differ (None: the runs were played on the same deals)."""
    common = [k for k in va if k in vb]
    return common, next((k for k in common if va[k][1] != vb[k][1]), None)


def paired_cells(va: dict, vb: dict, common: list) -> list[dict[str, Any]]:
    """Returns the deal-by-deal comparison of two runs' games ``va`` and ``vb`` (``_values``) on
    the deals ``common``, one entry a cell key (see ``compare_runs``)."""
    by_cell: dict[str, list[tuple[str, int]]] = {}
    for k in sorted(common, key=lambda k: (va[k][2], k[0], k[1])):  # by player count, then key
        by_cell.setdefault(k[0], []).append(k)
    cells = []
    for key, keys in by_cell.items():
        n = len(keys)
        wa = sum(va[k][0] for k in keys)
        wb = sum(vb[k][0] for k in keys)
        better_a = sum(1 for k in keys if va[k][0] > vb[k][0] + 1e-12)
        better_b = sum(1 for k in keys if vb[k][0] > va[k][0] + 1e-12)
        cells.append({
            "key": key, "players": va[keys[0]][2], "deals": n,
            "a_wins": wa, "b_wins": wb, "a_rate": wa / n, "b_rate": wb / n,
            "a_ci95": wilson(wa, n), "b_ci95": wilson(wb, n),
            "a_better": better_a, "b_better": better_b,
            "p": sign_test(better_a, better_a + better_b),
        })
    return cells


def compare_runs(a: str | Path, b: str | Path) -> dict[str, Any]:
    """Returns the deal-by-deal comparison of two results directories (see the module docstring).

    Keys: ``game``, ``cooperative``, ``a`` and ``b`` (each: ``name``, ``dir``,
    ``headline``, ``games``, ``cpu``), ``cells`` (one per cell key both hold,
    in order: ``key``, ``players``, ``deals``, ``a_wins``, ``b_wins``,
    ``a_rate``, ``b_rate``, ``a_ci95``, ``b_ci95``, ``a_better``, ``b_better``,
    ``p``), and ``unpaired`` (games of each run with no partner).

    Raises:
        StoreError: see the module docstring.
    """
    from ..core.registry import make

    sa, rows_a, cpu_a = _load(a)
    sb, rows_b, cpu_b = _load(b)
    if sa.game != sb.game:
        raise StoreError(f"{a} holds {sa.game} games and {b} {sb.game} games: compare runs of one game")
    game = make(sa.game, players=sa.players[0], **dict(sa.cells()[0].options))
    coop, top = game.info.cooperative, game.info.max_return
    va = _values(sa, rows_a, coop, top)
    vb = _values(sb, rows_b, coop, top)
    common, bad = shared_deals(va, vb)
    if not common:
        keys_a = sorted({k[0] for k in va})
        keys_b = sorted({k[0] for k in vb})
        raise StoreError(f"{a} and {b} share no deal: their cells are {keys_a} and {keys_b} "
                         "(a deal is a cell key and a game index both runs played)")
    if bad is not None:
        raise StoreError(f"game {bad[1]} of cell '{bad[0]}' has seed {va[bad][1]} in {a} and {vb[bad][1]} in {b}: "
                         f"the runs were not played on the same deals (their studies' seeds are "
                         f"{sa.seed} and {sb.seed}; give both the same seed)")
    cells = paired_cells(va, vb, common)
    shared = set(common)
    return {
        "game": sa.game,
        "cooperative": coop,
        "a": {"name": sa.name, "dir": str(a), "headline": headline_name(sa, coop), "games": len(va), "cpu": cpu_a},
        "b": {"name": sb.name, "dir": str(b), "headline": headline_name(sb, coop), "games": len(vb), "cpu": cpu_b},
        "cells": cells,
        "unpaired": {"a": len(va) - len(shared), "b": len(vb) - len(shared)},
    }


def _num(x: float) -> str:
    return f"{x:g}" if x == int(x) else f"{x:.1f}"


def render_comparison(c: dict[str, Any]) -> str:
    """Returns the comparison as Markdown: what A and B are, then one row a cell."""
    a, b = c["a"], c["b"]
    lines = [
        f"A: {a['name']} ({a['dir']}, {a['games']} games, {a['headline']})",
        f"B: {b['name']} ({b['dir']}, {b['games']} games, {b['headline']})",
        "",
        "| cell | deals | A won | B won | better for A only / for B only | sign test |",
        "|---|---|---|---|---|---|",
    ]
    for cell in c["cells"]:
        lo_a, hi_a = cell["a_ci95"]
        lo_b, hi_b = cell["b_ci95"]
        p = cell["p"]
        lines.append(
            f"| {cell['key']} | {cell['deals']} "
            f"| {_num(cell['a_wins'])} ({cell['a_rate']:.1%}, {lo_a:.1%}–{hi_a:.1%}) "
            f"| {_num(cell['b_wins'])} ({cell['b_rate']:.1%}, {lo_b:.1%}–{hi_b:.1%}) "
            f"| {cell['a_better']} / {cell['b_better']} "
            f"| {'p < 0.001' if p < 0.001 else f'p = {p:.3f}'} |")
    un = c["unpaired"]
    if un["a"] or un["b"]:
        lines += ["", f"Unpaired (left out): {un['a']} games of A, {un['b']} of B."]
    return "\n".join(lines)
