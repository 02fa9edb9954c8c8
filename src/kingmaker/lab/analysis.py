"""What a study's rows say: win rates with Wilson intervals, lengths, end reasons, differences.

``analyse(study, rows, cooperative)`` returns plain data (the report renders it):

- per cell: seat win rates (a shared win counts 1/k) with 95% Wilson intervals
  and a chi-square p-value for "every seat wins equally"; agent win rates
  when the seats hold different agents; in a co-operative game the team's win
  rate and the loss reasons; game length; end reasons; each figure's mean and
  spread and how often the winner has the most of it (which figure decides games);
- per pair of variants (cells with the same player count that differ in one
  option): the difference of the headline rate with Newcombe's interval and a
  z-test, and of the mean game length and each figure's mean.

The headline rate of a cell: the team's win rate (co-operative), else the
first listed agent's win rate when agents differ, else the first seat's.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .stats import chi_square_uniform, mean_difference, mean_sd, rate_difference, wilson
from .study import Study

__all__ = ["analyse", "headline_name", "headline_share", "win_shares"]


def win_shares(row: dict, cooperative: bool, max_return: float) -> list[float]:
    """Returns each seat's share of the game's win.

    Co-operative: 1 for every seat when the team won (the top return), else 0.
    Otherwise the seats ``game.outcome`` names share the win equally.
    """
    n = len(row["returns"])
    if cooperative:
        won = min(row["returns"]) >= max_return - 1e-9
        return [1.0 if won else 0.0] * n
    winners = row["winners"] or []
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]


def headline_share(row: dict, shares: list[float], study: Study, cooperative: bool) -> tuple[float, int]:
    """Returns a game's part of the study's headline rate, (wins, seats counted), from its
    seats' ``win_shares``.

    Co-operative, or one agent on every seat: the first seat's share of the win, of 1
    seat. Otherwise the shares of the seats the first listed agent holds, of that many."""
    if cooperative or len(set(study.agents)) == 1:
        return shares[0], 1
    held = [p for p, spec in enumerate(row["seats"]) if spec == study.agents[0]]
    return sum(shares[p] for p in held), len(held)


def headline_name(study: Study, cooperative: bool) -> str:
    if cooperative:
        return "team win rate"
    if len(set(study.agents)) > 1:
        return f"{study.agents[0]} win rate"
    return "first seat's win rate"


def _quantiles(xs: Sequence[float]) -> dict:
    if not xs:
        return {"mean": float("nan"), "sd": 0.0, "median": float("nan"), "p10": float("nan"), "p90": float("nan")}
    m, sd = mean_sd(xs)
    s = sorted(xs)
    q = statistics.quantiles(s, n=10, method="inclusive") if len(s) > 1 else [s[0]] * 9
    return {"mean": m, "sd": sd, "median": statistics.median(s), "p10": q[0], "p90": q[-1],
            "min": s[0], "max": s[-1]}


def _cell_summary(study: Study, cell: Any, rows: list[dict], cooperative: bool, max_return: float,
                  figures: list[str]) -> dict:
    n = cell.players
    g = len(rows)
    seat_wins = [0.0] * n
    agent_games: Counter = Counter()
    agent_wins: Counter = Counter()
    team = 0.0
    head = 0.0
    reasons: Counter = Counter()
    loss_reasons: Counter = Counter()
    first = study.agents[0]
    distinct = len(set(study.agents)) > 1
    for r in rows:
        shares = win_shares(r, cooperative, max_return)
        for p in range(n):
            seat_wins[p] += shares[p]
            agent_games[r["seats"][p]] += 1
            agent_wins[r["seats"][p]] += shares[p]
        reasons[r["reason"]] += 1
        if cooperative:
            team += shares[0]
            if shares[0] == 0:
                loss_reasons[r["reason"]] += 1
        head += headline_share(r, shares, study, cooperative)[0]
    head_n = g * sum(1 for a in _seat_specs(study, n) if a == first) if distinct and not cooperative else g
    seats = []
    for p in range(n):
        lo, hi = wilson(seat_wins[p], g)
        seats.append({"seat": p, "wins": seat_wins[p], "rate": seat_wins[p] / g if g else 0.0, "ci95": (lo, hi)})
    agents = []
    for spec in dict.fromkeys(study.agents):
        k, m = agent_wins[spec], agent_games[spec]
        lo, hi = wilson(k, m)
        agents.append({"agent": spec, "seat_games": m, "wins": k, "rate": k / m if m else 0.0, "ci95": (lo, hi)})
    figs = {}
    for name in figures:
        col = f"fig_{name}"
        values = [v for r in rows if r.get(col) for v in r[col]]
        winner_values = [r[col][w] for r in rows if r.get(col) for w in (r["winners"] or [])]
        decided = [r for r in rows if r.get(col) and len(r["winners"] or []) == 1]
        leads = sum(1 for r in decided if r[col][r["winners"][0]] >= max(r[col]) - 1e-9)
        lows = sum(1 for r in decided if r[col][r["winners"][0]] <= min(r[col]) + 1e-9)
        sole = sum(1 for r in decided
                   if sum(1 for v in r[col] if v >= max(r[col]) - 1e-9) == 1 and r[col][r["winners"][0]] >= max(r[col]) - 1e-9)
        figs[name] = {
            **_quantiles(values),
            "winner_mean": mean_sd(winner_values)[0] if winner_values else float("nan"),
            "decided": len(decided),
            "winner_has_most": leads / len(decided) if decided else float("nan"),
            "winner_alone_most": sole / len(decided) if decided else float("nan"),
            "winner_has_least": lows / len(decided) if decided else float("nan"),
            "values": values,
        }
    lengths = [r["length"] for r in rows]
    lo, hi = wilson(head, head_n)
    out = {
        "cell": cell.number,
        "key": cell.key,
        "label": cell.label,
        "players": n,
        "varied": dict(cell.varied),
        "games": g,
        "seats": seats,
        "seat_p": chi_square_uniform(seat_wins) if g and not cooperative else 1.0,
        "agents": agents,
        "headline": {"wins": head, "n": head_n, "rate": head / head_n if head_n else 0.0, "ci95": (lo, hi)},
        "length": _quantiles(lengths),
        "lengths": lengths,
        "decisions": mean_sd([r["decisions"] for r in rows])[0] if rows else float("nan"),
        "reasons": dict(reasons.most_common()),
        "figures": figs,
        "mean_returns": [mean_sd([r["returns"][p] for r in rows])[0] if rows else float("nan") for p in range(n)],
    }
    if cooperative:
        tlo, thi = wilson(team, g)
        out["team"] = {"wins": team, "rate": team / g if g else 0.0, "ci95": (tlo, thi)}
        out["loss_reasons"] = dict(loss_reasons.most_common())
    return out


def _seat_specs(study: Study, n: int) -> list[str]:
    specs = list(study.agents)
    return specs + [specs[-1]] * (n - len(specs))


def analyse(study: Study, rows: Sequence[dict], cooperative: bool, max_return: float = 1.0,
            figures: Sequence[str] | None = None) -> dict:
    """Returns the analysis of a study's rows (see the module docstring)."""
    by_cell: dict[int, list[dict]] = {}
    for r in rows:
        by_cell.setdefault(r["cell"], []).append(r)
    if figures is None:
        figures = [k[4:] for r in rows[:1] for k in r if k.startswith("fig_") and r[k] is not None]
    cells = [
        _cell_summary(study, cell, by_cell.get(cell.number, []), cooperative, max_return, list(figures))
        for cell in study.cells()
    ]
    pairs = []
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            if a["players"] != b["players"]:
                continue
            differ = [k for k in a["varied"] if a["varied"][k] != b["varied"][k]]
            if len(differ) != 1 or not a["games"] or not b["games"]:
                continue
            ha, hb = a["headline"], b["headline"]
            pair = {
                "players": a["players"],
                "option": differ[0],
                "a": a["label"],
                "b": b["label"],
                "held": {k: v for k, v in a["varied"].items() if k != differ[0]},
                "a_value": a["varied"][differ[0]],
                "b_value": b["varied"][differ[0]],
                "headline": rate_difference(ha["wins"], ha["n"], hb["wins"], hb["n"]),
                "length": mean_difference(a["lengths"], b["lengths"]),
                "figures": {name: mean_difference(a["figures"][name]["values"], b["figures"][name]["values"])
                            for name in figures},
            }
            if not cooperative:
                sa, sb = a["seats"][0], b["seats"][0]
                pair["first_seat"] = rate_difference(sa["wins"], a["games"], sb["wins"], b["games"])
            pairs.append(pair)
    return {
        "study": study.name,
        "game": study.game,
        "cooperative": cooperative,
        "headline": headline_name(study, cooperative),
        "games": len(rows),
        "figures": list(figures),
        "cells": cells,
        "pairs": pairs,
    }
