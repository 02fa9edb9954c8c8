"""A study's verdict: its ``[decides]`` rule, written before the games, applied to its results.

A strength or balance row means something when the rule that reads it was fixed before it
was played: how many games, which test, which threshold. ``Study.decides`` holds that rule
(``study.Decides``); ``verdict(study, rows, cooperative, max_return, out_dir)`` applies it
to a results directory's rows and returns plain data, which ``lab report`` prints at the
top of the report and ``lab run`` and ``lab report`` print on the terminal.

The verdict reads only the games the plan counts, indices ``0 .. games - 1`` of each cell
(games played past the plan are the report's, not the rule's), and only once a cell holds
all of them: until then the cell is ``pending``, whatever its rate says part-way. A
complete cell is ``met`` or ``not met``; the study is ``not met`` as soon as one complete
cell is, ``pending`` while a cell is missing games, else ``met``. A paired rule
(``better_than``) whose other directory cannot be read, or holds other deals, gives
``no verdict`` with the reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .analysis import analyse
from .study import Study

__all__ = ["verdict", "verdict_line", "verdict_of"]

PENDING, MET, NOT_MET, NO_VERDICT = "pending", "met", "not met", "no verdict"


def _paired(study: Study, counted: list[dict], cooperative: bool, max_return: float,
            other: str, base: Path | None) -> tuple[dict[str, dict], str | None]:
    """The deal-by-deal comparison with the results directory ``other`` on the counted games,
    by cell key, or the reason there is none."""
    from .compare import _load, _values, paired_cells, shared_deals
    from .store import StoreError

    path = Path(other)
    if not path.exists() and base is not None and (base / path.name).exists():
        path = base / path.name  # a sibling of the results directory
    try:
        so, rows_o, _ = _load(path)
    except StoreError as e:
        return {}, f"{other} cannot be read: {e}"
    if so.game != study.game:
        return {}, f"{other} holds {so.game} games, not {study.game}"
    va = _values(study, counted, cooperative, max_return)
    vo = _values(so, rows_o, cooperative, max_return)
    common, bad = shared_deals(va, vo)
    if bad is not None:
        return {}, (f"{other} was not played on these deals (game {bad[1]} of cell '{bad[0]}' has "
                    f"another seed: the studies' seeds are {study.seed} and {so.seed})")
    return {c["key"]: c for c in paired_cells(va, vo, common)}, None


def verdict(study: Study, rows: list[dict], cooperative: bool, max_return: float = 1.0,
            out_dir: str | Path | None = None, changes: Any = ()) -> dict[str, Any] | None:
    """Returns the verdict of ``study.decides`` on ``rows`` (None when the study has no rule).

    Keys: ``rule`` (in words), ``written``, ``played`` (games stored when it was written),
    ``status`` (``met``, ``not met``, ``pending`` or ``no verdict``), ``reason`` (for ``no
    verdict``), and ``cells``, one a cell: ``label``, ``key``, ``players``, ``counted``
    (games the rule reads, so far), ``planned``, ``status``, ``rate``, ``ci95``, and for a
    threshold ``threshold``, for a paired rule ``deals``, ``better``, ``worse`` and ``p``;
    ``changes``, the rule's changes made once games were stored (the results directory's
    ``rule_changes``, given as ``changes``: ``from``, ``to``, ``games``, ``at``).
    ``better_than`` is looked up as given (from the working directory), then by its name
    beside ``out_dir``.
    """
    rule = study.decides
    if rule is None:
        return None
    counted = [r for r in rows if r["index"] < study.games]
    a = analyse(study, counted, cooperative, max_return, figures=[])
    paired: dict[str, dict] = {}
    reason = None
    if rule.better_than is not None:
        base = Path(out_dir).resolve().parent if out_dir is not None else None
        paired, reason = _paired(study, counted, cooperative, max_return, rule.better_than, base)
    cells = []
    for c in a["cells"]:
        h = c["headline"]
        entry: dict[str, Any] = {"label": c["label"], "key": c["key"], "players": c["players"],
                                 "counted": c["games"], "planned": study.games,
                                 "rate": h["rate"], "ci95": h["ci95"]}
        done = c["games"] >= study.games
        if rule.better_than is None:
            x = rule.threshold(c["players"])
            entry["threshold"] = x
            ok = h["rate"] >= x - 1e-12 if rule.at_least is not None else entry["ci95"][0] > x
            entry["status"] = (MET if ok else NOT_MET) if done else PENDING
        elif reason is not None:
            entry["status"] = NO_VERDICT if done else PENDING
        else:
            p = paired.get(c["key"])
            if p is None:
                entry.update(deals=0, better=0, worse=0, p=1.0)
            else:
                entry.update(deals=p["deals"], better=p["a_better"], worse=p["b_better"], p=p["p"])
            short = entry["deals"] < c["games"]
            ok = entry["better"] > entry["worse"] and entry["p"] < rule.p_below
            if not done:
                entry["status"] = PENDING
            elif short:
                entry["status"] = NO_VERDICT
                reason = reason or (f"{rule.better_than} holds {entry['deals']} of the {c['games']} counted deals "
                                    f"of cell '{c['key']}': play it on all of them first")
            else:
                entry["status"] = MET if ok else NOT_MET
        cells.append(entry)
    statuses = [e["status"] for e in cells]
    if NOT_MET in statuses:
        status = NOT_MET
    elif NO_VERDICT in statuses:
        status = NO_VERDICT
    elif PENDING in statuses:
        status = PENDING
    else:
        status = MET
    out = {"rule": rule.describe(), "written": rule.written, "played": rule.played, "status": status,
           "cells": cells, "changes": list(changes)}
    if reason is not None and status == NO_VERDICT:
        out["reason"] = reason
    return out


def verdict_line(v: dict[str, Any]) -> str:
    """Returns the verdict in one line for the terminal, e.g. ``decides: pending (57 of 200
    games; the rule: ...)``."""
    counted = sum(c["counted"] for c in v["cells"])
    planned = sum(c["planned"] for c in v["cells"])
    head = f"decides: {v['status']}"
    if v["status"] == NO_VERDICT:
        head += f" ({v.get('reason', '')})"
    elif v["status"] == PENDING:
        head += f" ({counted} of {planned} games counted; a part-way rate decides nothing)"
    tail = f" (changed {len(v['changes'])} time(s) once games were stored: see the report)" if v["changes"] else ""
    return f"{head}; the rule, written {v['written']} with {v['played']} games stored: {v['rule']}{tail}"


def verdict_of(out_dir: str | Path) -> dict[str, Any] | None:
    """Returns the verdict of the study in the results directory ``out_dir`` (None: the study
    has no ``[decides]`` rule, or the directory holds no games yet)."""
    from ..core.registry import make
    from .store import load_run, read_rows

    study, meta = load_run(out_dir)
    if study.decides is None:
        return None
    table, _ = read_rows((Path(out_dir) / "parts").glob("*.parquet"))
    if table is None:
        return None
    game = make(study.game, players=study.players[0], **dict(study.cells()[0].options))
    return verdict(study, table.to_pylist(), game.info.cooperative, game.info.max_return, out_dir,
                   meta.get("rule_changes", ()))
