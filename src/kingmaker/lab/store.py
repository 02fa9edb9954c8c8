"""The lab's results: one Parquet row per game, resumable and mergeable (pyarrow).

A results directory::

    runs/lab/kings-kilt-seats/
        study.json                 the study, its fingerprint and the code's hash
        parts/part-*.parquet       rows, written as they come (a few seconds' worth each)

Reading dedupes on (cell, index) and sorts, so a run killed between writing a
compacted file and deleting its parts, or two merged runs that both played a
game, still give each game once. Rows are deterministic: when two copies of
one game differ, ``merge`` says so instead of choosing.

The code hash covers ``kingmaker.core``, the lab's player, the game's package
and (unless every seat plays fast) ``kingmaker.agents``: games played by other code (a rules fix) are
never mixed with new ones silently.

Load the rows anywhere::

    import pandas as pd; pd.read_parquet("runs/lab/kings-kilt-seats/parts")
    import duckdb; duckdb.sql("select * from 'runs/lab/kings-kilt-seats/parts/*.parquet'")
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ..core.errors import RecordError
from .study import Study, StudyError, parse_study

__all__ = ["Store", "StoreError", "adopt_code", "code_hash", "load_run", "merge_runs", "read_rows"]

_META = b"kingmaker-lab"
_FIXED = [
    ("cell", pa.int32()),
    ("cell_key", pa.string()),
    ("players", pa.int8()),
    ("index", pa.int32()),
    ("seed", pa.int64()),
    ("seats", pa.list_(pa.string())),
    ("returns", pa.list_(pa.float64())),
    ("winners", pa.list_(pa.int8())),
    ("reason", pa.string()),
    ("length", pa.int32()),
    ("decisions", pa.int32()),
]


# Results that cannot be read or combined are bad game records: the project's
# RecordError (code ``record/invalid``).
StoreError = RecordError


def code_hash(game_id: str, agents: bool = True) -> str:
    """Returns a short hash of the code that decides a game of ``game_id``.

    It covers ``kingmaker.core``, the game's package, the lab's player and, with
    ``agents``, ``kingmaker.agents`` and the network file reader the expert level uses
    (``kingmaker.rl.policy``); a study whose seats all play fast uses neither.
    """
    from ..core.registry import game_class

    root = Path(__file__).resolve().parent.parent
    pkg = Path(sys.modules[game_class(game_id).__module__].__file__).resolve().parent
    files: list[Path] = []
    for d in (root / "core", pkg, *([root / "agents"] if agents else [])):
        files += [p for p in d.rglob("*") if p.suffix in (".py", ".json") and "__pycache__" not in p.parts]
    files.append(root / "lab" / "play.py")
    if agents:
        files.append(root / "rl" / "policy.py")
    h = hashlib.sha256()
    for p in sorted(set(files)):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _schema(rows: Sequence[dict]) -> pa.Schema:
    fields = list(_FIXED)
    known = {name for name, _ in _FIXED}
    for key in rows[0]:
        if key in known:
            continue
        if key.startswith("fig_"):
            fields.append((key, pa.list_(pa.float64())))
        else:
            sample = next((r[key] for r in rows if r.get(key) is not None), "")
            if isinstance(sample, bool):
                fields.append((key, pa.bool_()))
            elif isinstance(sample, int):
                fields.append((key, pa.int64()))
            elif isinstance(sample, float):
                fields.append((key, pa.float64()))
            else:
                fields.append((key, pa.string()))
    return pa.schema(fields)


def _dedupe(table: pa.Table) -> pa.Table:
    if table.num_rows == 0:
        return table
    keys = list(zip(table.column("cell").to_pylist(), table.column("index").to_pylist()))
    first: dict[tuple[int, int], int] = {}
    for i, k in enumerate(keys):
        first.setdefault(k, i)
    order = sorted(first, key=lambda k: k)
    return table.take(pa.array([first[k] for k in order], type=pa.int64()))


def read_rows(paths: Iterable[Path]) -> tuple[pa.Table | None, float]:
    """Returns the rows of Parquet files (deduped, sorted by cell and index) and their CPU seconds."""
    tables = []
    cpu = 0.0
    for p in sorted(paths):
        try:
            t = pq.read_table(p)
        except (OSError, pa.ArrowInvalid) as e:
            raise StoreError(f"{p} is not a readable Parquet file of the lab: {e}") from None
        meta = json.loads((t.schema.metadata or {}).get(_META, b"{}"))
        cpu += float(meta.get("cpu", 0.0))
        tables.append(t.replace_schema_metadata(None))
    if not tables:
        return None, cpu
    return _dedupe(pa.concat_tables(tables, promote_options="default")), cpu


class Store:
    """A results directory for one study (see the module docstring).

    Args:
        out: the directory (created if missing).
        study: the study whose games go here.
        fresh: forget the games already stored.

    Raises:
        StoreError: the directory holds another study's games, or games played by other code.
    """

    def __init__(self, out: str | Path, study: Study, fresh: bool = False) -> None:
        self.out = Path(out)
        self.parts = self.out / "parts"
        self.study = study
        from .play import FAST_AGENTS

        self.code = code_hash(study.game, agents=not (study.fast and set(study.agents) <= set(FAST_AGENTS)))
        meta_path = self.out / "study.json"
        if fresh and self.parts.exists():
            for p in self.parts.glob("*.parquet"):
                p.unlink()
        old = json.loads(meta_path.read_text()) if meta_path.exists() and not fresh else {}
        if old and any(self.parts.glob("*.parquet")):
            if old.get("fingerprint") != study.fingerprint():
                prev = old.get("study", {})
                diff = [k for k, v in study.definition().items() if prev.get(k) != v]
                raise StoreError(
                    f"{self.out} holds the games of another study (it differs in: {', '.join(diff) or '?'}); "
                    "choose another --out, or --fresh to replace them"
                )
            if old.get("code") != self.code:
                raise StoreError(
                    f"{self.out} holds games played by other code (code {old.get('code')}, now {self.code}): "
                    "the game's rules, its bots or the agents changed since; --fresh replays them"
                )
        self.parts.mkdir(parents=True, exist_ok=True)
        history = _history(old)
        before = old.get("study", {}).get("decides") if old else None
        rule = study.decides.to_dict() if study.decides is not None else None
        if before != rule and any(self.parts.glob("*.parquet")):
            # a rule changed (or added, or dropped) once games were stored: kept for the report
            table, _ = read_rows(self.parts.glob("*.parquet"))
            change = {"from": before, "to": rule, "games": 0 if table is None else table.num_rows,
                      "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            history["rule_changes"] = [*history.get("rule_changes", []), change]
        _write_json(meta_path, {"study": study.to_dict(), "fingerprint": study.fingerprint(), "code": self.code,
                                **history})

    def table(self) -> pa.Table | None:
        """Returns every stored row (deduped, sorted by cell and index), or None."""
        return read_rows(self.parts.glob("*.parquet"))[0]

    def cpu_seconds(self) -> float:
        """Returns the worker CPU seconds spent on the stored games."""
        return read_rows(self.parts.glob("*.parquet"))[1]

    def done(self) -> set[tuple[int, int]]:
        """Returns the (cell, index) of every stored game."""
        out: set[tuple[int, int]] = set()
        for p in self.parts.glob("*.parquet"):
            t = pq.read_table(p, columns=["cell", "index"])
            out.update(zip(t.column("cell").to_pylist(), t.column("index").to_pylist()))
        return out

    def append(self, rows: Sequence[dict], cpu: float = 0.0) -> Path | None:
        """Writes rows as a new part file (atomically: a killed run leaves whole files only)."""
        if not rows:
            return None
        return _write_part(self.parts, pa.Table.from_pylist(list(rows), schema=_schema(rows)),
                           {"fingerprint": self.study.fingerprint(), "code": self.code, "cpu": cpu})

    def compact(self) -> None:
        """Rewrites the parts as one file (their rows deduped), then removes the old parts."""
        old = sorted(self.parts.glob("*.parquet"))
        if len(old) <= 1:
            return
        table, cpu = read_rows(old)
        _write_part(self.parts, table, {"fingerprint": self.study.fingerprint(), "code": self.code, "cpu": cpu})
        for p in old:
            p.unlink()


def _write_part(directory: Path, table: pa.Table, meta: dict) -> Path:
    table = table.replace_schema_metadata({_META: json.dumps(meta).encode()})
    name = f"part-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:8]}.parquet"
    tmp = directory / f".{name}.tmp"
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, directory / name)
    return directory / name


def _write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:6]}.tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
    os.replace(tmp, path)


def load_run(out: str | Path) -> tuple[Study, dict]:
    """Returns the study of a results directory and its study.json data.

    Raises:
        StoreError: no study.json there.
    """
    path = Path(out) / "study.json"
    if not path.exists():
        raise StoreError(f"{out} is not a lab results directory (no study.json)")
    data = json.loads(path.read_text())
    s = data["study"]
    fields = {k: s[k] for k in ("game", "players", "agents", "games", "seed", "options", "grid", "fast",
                                "chunk", "name", "title", "notes", "decides") if k in s}
    try:
        study = parse_study(fields, source=str(path))
    except StudyError as e:
        raise StoreError(str(e)) from None
    return study, data


def _history(meta: dict) -> dict:
    """Returns what of a study.json outlives a rewrite: the ``adopted`` record of ``lab verify``
    and the ``rule_changes`` of the study's ``[decides]`` rule made once games were stored."""
    return {k: meta[k] for k in ("adopted", "rule_changes") if k in meta}


def adopt_code(out: str | Path, code: str, checked: int) -> None:
    """Stamps the results in ``out`` with ``code`` (a hash), recording the old one.

    Only for ``verify_run``, once ``checked`` replayed games equalled their rows.
    """
    path = Path(out) / "study.json"
    data = json.loads(path.read_text())
    record = {"from": data.get("code"), "to": code, "checked": checked,
              "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    data["adopted"] = [*data.get("adopted", []), record]
    data["code"] = code
    _write_json(path, data)


def merge_runs(dest: str | Path, sources: Sequence[str | Path], force: bool = False) -> dict[str, Any]:
    """Adds the games of ``sources`` (results directories of one study) to ``dest``.

    ``dest`` may be new (it takes the first source's study). Games both hold
    must be equal, row for row; the result is compacted into one file.

    Returns:
        {"games": rows in dest, "added": rows new to dest}.

    Raises:
        StoreError: sources of different studies, played by other code (unless ``force``),
            or one game stored with different rows.
    """
    if not sources:
        raise StoreError("name at least one results directory to merge")
    studies = [load_run(s) for s in sources]
    dest = Path(dest)
    if (dest / "study.json").exists():
        studies.insert(0, load_run(dest))
    study, meta = studies[0]
    for other, other_meta in studies[1:]:
        if other.fingerprint() != study.fingerprint():
            raise StoreError(f"cannot merge games of different studies: {study.name} and {other.name}")
        if other_meta.get("code") != meta.get("code") and not force:
            raise StoreError(
                "these runs were played by different code (a rules or bot change between them): "
                f"{meta.get('code')} and {other_meta.get('code')}; --force merges them anyway"
            )
    games = max(s.games for s, _ in studies)
    paths = []
    for src in [dest, *map(Path, sources)]:
        paths += sorted((src / "parts").glob("*.parquet"))
    before = read_rows((dest / "parts").glob("*.parquet"))[0] if (dest / "parts").exists() else None
    seen: dict[tuple[int, int], dict] = {}
    for p in paths:
        t, _ = read_rows([p])
        if t is None:
            continue
        for row in t.to_pylist():
            key = (row["cell"], row["index"])
            if key in seen and seen[key] != row:
                raise StoreError(f"game {key[1]} of cell {key[0]} differs between the runs: they are not one study")
            seen.setdefault(key, row)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "parts").mkdir(exist_ok=True)
    _write_json(dest / "study.json", {"study": study.with_games(games).to_dict(),
                                      "fingerprint": study.fingerprint(), "code": meta.get("code"),
                                      **_history(meta)})
    table, cpu = read_rows(paths)
    old = sorted((dest / "parts").glob("*.parquet"))
    if table is not None:
        _write_part(dest / "parts", table, {"fingerprint": study.fingerprint(), "code": meta.get("code"), "cpu": cpu})
    for p in old:
        p.unlink()
    n = 0 if table is None else table.num_rows
    return {"games": n, "added": n - (0 if before is None else before.num_rows)}
