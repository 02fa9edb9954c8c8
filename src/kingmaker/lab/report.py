"""``kingmaker lab report``: a study's analysis as Markdown or HTML, with matplotlib PNGs.

``write_report(out_dir, dest, fmt)`` reads a results directory, analyses it
(``analysis.analyse``) and writes ``dest`` (``report.md`` or ``report.html``)
with its plots beside it (``<stem>-seats.png``...):

- seats: win rate per seat and cell, 95% Wilson error bars, the fair share dashed
  (co-operative games: the team's win rate per cell instead);
- agents: each agent's win rate per cell (when the seats hold different agents);
- option: the headline rate against each varied option (or the player count);
- length: histograms of game length per cell;
- reasons: the end reasons per cell (co-operative: why the games were lost);
- figures: histograms of each per-seat figure the game declares;
- decides: how often the winner has the most of each figure.
"""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import Any

from .analysis import analyse
from .study import Study

__all__ = ["PLOTS", "render", "write_report"]

PLOTS = ("seats", "agents", "option", "length", "reasons", "figures", "decides")
_MAX_LINES = 10  # cells drawn in one histogram


def _fmt(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _pct(x: float) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1%}"


def _ci(rate: float, ci: tuple[float, float]) -> str:
    return f"{_pct(rate)} ({_pct(ci[0])}–{_pct(ci[1])})"


def _num(x: float, digits: int = 2) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _signed(d: dict, pct: bool) -> str:
    f = (lambda v: f"{v * 100:+.1f} pt") if pct else (lambda v: f"{v:+.2f}")
    lo, hi = d["ci95"]
    mark = " **significant**" if d["significant"] else ""
    return f"{f(d['diff'])} ({f(lo)} to {f(hi)}), p={d['p']:.3g}{mark}"


def _hist(ax, values: list, label: str) -> None:
    """Draws a step histogram of shares (not counts), one bin per integer for small integer ranges."""
    if not values:
        return
    lo, hi = min(values), max(values)
    if all(float(v).is_integer() for v in values) and hi - lo <= 60:
        bins = [lo - 0.5 + k for k in range(int(hi - lo) + 2)]
    else:
        bins = 30
    ax.hist(values, bins=bins, weights=[1 / len(values)] * len(values), histtype="step", label=label)


def _plots(a: dict, study: Study, dest: Path, stem: str) -> dict[str, Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made: dict[str, Path] = {}
    cells = [c for c in a["cells"] if c["games"]]
    labels = [c["label"] for c in cells]
    width_in = max(6.0, 0.9 * len(cells) + 2)

    def save(fig, name: str) -> None:
        path = dest.parent / f"{stem}-{name}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        made[name] = path

    # seats (or the team)
    fig, ax = plt.subplots(figsize=(width_in, 4))
    if a["cooperative"]:
        rates = [c["team"]["rate"] for c in cells]
        err = [[max(0.0, r - c["team"]["ci95"][0]) for r, c in zip(rates, cells)],
               [max(0.0, c["team"]["ci95"][1] - r) for r, c in zip(rates, cells)]]
        ax.bar(range(len(cells)), rates, yerr=err, capsize=3, color="tab:green")
        ax.set_ylabel("team win rate (95% CI)")
    else:
        most = max(c["players"] for c in cells)
        w = 0.8 / most
        for p in range(most):
            xs, ys, lo, hi = [], [], [], []
            for i, c in enumerate(cells):
                if p < c["players"]:
                    s = c["seats"][p]
                    xs.append(i - 0.4 + w * (p + 0.5))
                    ys.append(s["rate"])
                    lo.append(max(0.0, s["rate"] - s["ci95"][0]))
                    hi.append(max(0.0, s["ci95"][1] - s["rate"]))
            ax.bar(xs, ys, width=w, yerr=[lo, hi], capsize=2, label=f"seat {p}")
        for i, c in enumerate(cells):
            ax.hlines(1 / c["players"], i - 0.45, i + 0.45, colors="k", linestyles="dashed", linewidth=1)
        ax.set_ylabel("win rate (95% CI); dashed: fair share")
        ax.legend(fontsize=8, ncol=most)
    ax.set_xticks(range(len(cells)), labels, rotation=30, ha="right", fontsize=8)
    ax.set_title(f"{study.name}: {'team' if a['cooperative'] else 'seat'} win rates")
    save(fig, "seats")

    if len(set(study.agents)) > 1:
        fig, ax = plt.subplots(figsize=(width_in, 4))
        specs = list(dict.fromkeys(study.agents))
        w = 0.8 / len(specs)
        for k, spec in enumerate(specs):
            ag = [next(x for x in c["agents"] if x["agent"] == spec) for c in cells]
            xs = [i - 0.4 + w * (k + 0.5) for i in range(len(cells))]
            ax.bar(xs, [x["rate"] for x in ag], width=w, label=spec, capsize=2,
                   yerr=[[max(0.0, x["rate"] - x["ci95"][0]) for x in ag],
                         [max(0.0, x["ci95"][1] - x["rate"]) for x in ag]])
        ax.set_xticks(range(len(cells)), labels, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("win rate per seat-game (95% CI)")
        ax.legend(fontsize=8)
        save(fig, "agents")

    # the headline rate against each option (or the player count)
    axes_opts = list(study.grid) or ["players"]
    fig, axs = plt.subplots(1, len(axes_opts), figsize=(4.5 * len(axes_opts), 3.6), squeeze=False)
    for ax, opt in zip(axs[0], axes_opts):
        groups: dict[str, list[dict]] = {}
        for c in cells:
            rest = [f"{c['players']}p"] if opt != "players" else []
            rest += [f"{k}={_fmt(v)}" for k, v in c["varied"].items() if k != opt]
            groups.setdefault(" ".join(rest) or "all", []).append(c)
        for name, cs in groups.items():
            xs = [_fmt(c["players"] if opt == "players" else c["varied"][opt]) for c in cs]
            ys = [c["headline"]["rate"] for c in cs]
            err = [[max(0.0, y - c["headline"]["ci95"][0]) for y, c in zip(ys, cs)],
                   [max(0.0, c["headline"]["ci95"][1] - y) for y, c in zip(ys, cs)]]
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=name)
        ax.set_xlabel(opt)
        ax.set_ylabel(a["headline"])
        if len(groups) > 1:
            ax.legend(fontsize=7)
    save(fig, "option")

    fig, ax = plt.subplots(figsize=(7, 4))
    for c in cells[:_MAX_LINES]:
        _hist(ax, c["lengths"], c["label"])
    ax.set_xlabel("game length (actions, chance included)")
    ax.set_ylabel("share of games")
    ax.legend(fontsize=7)
    save(fig, "length")

    key = "loss_reasons" if a["cooperative"] else "reasons"
    reasons = list(dict.fromkeys(r for c in cells for r in c.get(key, {})))
    fig, ax = plt.subplots(figsize=(width_in, 4))
    bottom = [0.0] * len(cells)
    for reason in reasons or ["(none)"]:
        ys = [c.get(key, {}).get(reason, 0) / c["games"] for c in cells]
        ax.bar(range(len(cells)), ys, bottom=bottom, label=reason)
        bottom = [b + y for b, y in zip(bottom, ys)]
    ax.set_xticks(range(len(cells)), labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("share of games" + (" (lost, by reason)" if a["cooperative"] else " by end reason"))
    ax.legend(fontsize=7)
    save(fig, "reasons")

    figs = a["figures"]
    if figs:
        cols = min(3, len(figs))
        rows = math.ceil(len(figs) / cols)
        fig, axs = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
        for k, name in enumerate(figs):
            ax = axs[k // cols][k % cols]
            for c in cells[:_MAX_LINES]:
                _hist(ax, c["figures"][name]["values"], c["label"])
            ax.set_title(f"{name} (share of seat-games)", fontsize=9)
        for k in range(len(figs), rows * cols):
            axs[k // cols][k % cols].axis("off")
        axs[0][0].legend(fontsize=6)
        save(fig, "figures")

        fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(figs) + 2), 3.6))
        w = 0.8 / max(1, min(len(cells), _MAX_LINES))
        for i, c in enumerate(cells[:_MAX_LINES]):
            ys = [c["figures"][n]["winner_has_most"] for n in figs]
            ax.bar([k - 0.4 + w * (i + 0.5) for k in range(len(figs))], ys, width=w, label=c["label"])
        ax.set_xticks(range(len(figs)), figs, rotation=20, fontsize=8)
        ax.set_ylabel("winner has the most (decided games)")
        ax.legend(fontsize=6)
        save(fig, "decides")
    return made


def _play_mode(study: Study) -> str:
    """How the study's games were played (``fast`` applies only where every seat is fast)."""
    from .play import FAST_AGENTS

    if study.fast and set(study.agents) <= set(FAST_AGENTS):
        return "heuristic/random on the true state (fast)"
    return "every seat through Match (its observations)"


def _cpu_text(cpu: float, games: int) -> str:
    """The CPU time in all and per game, in ms or s as suits the size."""
    each = cpu / max(1, games)
    per = f"{each * 1000:.1f} ms" if each < 10 else f"{each:.1f} s"
    return f"{cpu:,.0f} s ({per} per game)"


def _rule_text(d: dict | None) -> str:
    """A stored ``[decides]`` table in words ("no rule" for none)."""
    if not d:
        return "no rule"
    from .study import Decides

    return f"'{Decides(**d).describe()}' (written {d.get('written')})"


def _verdict_blocks(v: dict) -> list[tuple]:
    """The study's ``[decides]`` rule and what it says of the games (``decide.verdict``)."""
    out: list[tuple] = [("h", 2, f"Verdict: {v['status']}")]
    text = (f"The rule, written {v['written']} with {v['played']} games stored: {v['rule']}. "
            "It reads each cell's first planned games, once all are in; until then a cell is pending.")
    if v.get("reason"):
        text += f" No verdict: {v['reason']}."
    out.append(("p", text))
    for ch in v.get("changes", ()):
        was = _rule_text(ch["from"])
        now = _rule_text(ch["to"])
        out.append(("p", f"The rule changed at {ch['at']}, with {ch['games']} games stored: from {was} to {now}."))
    paired = any("p" in c for c in v["cells"])
    head = ["cell", "games counted", "rate (95% CI)"]
    head += ["deals paired", "better / worse", "sign test"] if paired else ["threshold"]
    rows = []
    for c in v["cells"]:
        row = [c["label"], f"{c['counted']} of {c['planned']}", _ci(c["rate"], c["ci95"])]
        if paired:
            row += [str(c.get("deals", "-")), f"{c.get('better', '-')} / {c.get('worse', '-')}",
                    f"p = {c['p']:.3g}" if "p" in c else "-"]
        else:
            row.append(_pct(c["threshold"]))
        rows.append([*row, c["status"]])
    out.append(("table", [*head, "verdict"], rows))
    return out


def _blocks(a: dict, study: Study, meta: dict, plots: dict[str, Path]) -> list[tuple]:
    b: list[tuple] = []
    cells = a["cells"]
    b.append(("h", 1, study.title or f"Study {study.name}"))
    if study.notes:
        b.append(("p", study.notes.strip()))
    v = meta.get("verdict")
    if v is not None:
        b.extend(_verdict_blocks(v))
    opts = ", ".join(f"{k}={v}" for k, v in study.options.items()) or "defaults"
    grid = "; ".join(f"{k} ∈ {{{', '.join(map(str, v))}}}" for k, v in study.grid.items()) or "none"
    cpu = meta.get("cpu", 0.0)
    b.append(("table", ["study", "value"], [
        ["game", study.game],
        ["players", ", ".join(map(str, study.players))],
        ["agents (seats rotate)", ", ".join(study.agents)],
        ["fixed options", opts],
        ["grid", grid],
        ["games per cell", str(study.games)],
        ["games stored", str(a["games"])],
        ["seed", str(study.seed)],
        ["play", _play_mode(study)],
        ["CPU time", _cpu_text(cpu, a["games"])],
    ]))
    if a["cooperative"]:
        b.append(("h", 2, "Team win rate and loss reasons"))
        rows = []
        for c in cells:
            t = c["team"]
            loss = ", ".join(f"{k} {v}" for k, v in c["loss_reasons"].items()) or "-"
            rows.append([c["label"], str(c["games"]), _ci(t["rate"], t["ci95"]), _num(c["length"]["mean"], 0), loss])
        b.append(("table", ["cell", "games", "team win rate (95% CI)", "mean length", "losses by reason"], rows))
    else:
        b.append(("h", 2, "Seat win rates"))
        b.append(("p", "A shared win counts 1/k for each of k winners. 95% Wilson intervals. "
                       "p: chi-square test that every seat wins equally often (small: some seat is favoured)."))
        most = max(c["players"] for c in cells)
        rows = []
        for c in cells:
            seats = [_ci(s["rate"], s["ci95"]) for s in c["seats"]] + ["-"] * (most - c["players"])
            rows.append([c["label"], str(c["games"]), *seats, f"{c['seat_p']:.3g}"])
        b.append(("table", ["cell", "games", *[f"seat {p}" for p in range(most)], "p (equal seats)"], rows))
    if plots.get("seats"):
        b.append(("img", plots["seats"], "win rates"))
    if len(set(study.agents)) > 1:
        b.append(("h", 2, "Agent win rates"))
        rows = [[c["label"], *[_ci(x["rate"], x["ci95"]) for x in c["agents"]]] for c in cells]
        b.append(("table", ["cell", *[x["agent"] for x in cells[0]["agents"]]], rows))
        if plots.get("agents"):
            b.append(("img", plots["agents"], "agent win rates"))
    if plots.get("option"):  # a plot only: no heading over nothing
        b.append(("h", 2, f"{a['headline'][0].upper()}{a['headline'][1:]} against the options"))
        b.append(("img", plots["option"], "headline rate against the options"))
    b.append(("h", 2, "Game length and end reasons"))
    rows = []
    for c in cells:
        q = c["length"]
        reasons = ", ".join(f"{k} {v / max(1, c['games']):.1%}" for k, v in c["reasons"].items())
        rows.append([c["label"], _num(q["mean"], 1), _num(q["sd"], 1), _num(q["median"], 0),
                     f"{_num(q['p10'], 0)}–{_num(q['p90'], 0)}", _num(c["decisions"], 1), reasons or "-"])
    b.append(("table", ["cell", "mean length", "sd", "median", "10–90%", "decisions", "end reasons"], rows))
    for name in ("length", "reasons"):
        if plots.get(name):
            b.append(("img", plots[name], name))
    if a["figures"]:
        b.append(("h", 2, "Figures: distributions and which one decides games"))
        b.append(("p", "Per-seat figures the game reports at the end. 'winner has most': share of games "
                       "with one winner where that winner has the top value (ties included); 'alone': "
                       "the winner's top value is not shared; 'winner has least': for figures where less is better."))
        rows = []
        for c in cells:
            for name in a["figures"]:
                f = c["figures"][name]
                rows.append([c["label"], name, f"{_num(f['mean'])} ({_num(f['sd'])})", _num(f["winner_mean"]),
                             _pct(f["winner_has_most"]), _pct(f["winner_alone_most"]), _pct(f["winner_has_least"])])
        b.append(("table", ["cell", "figure", "mean (sd)", "winner's mean", "winner has most", "alone",
                            "winner has least"], rows))
        for name in ("figures", "decides"):
            if plots.get(name):
                b.append(("img", plots[name], name))
    if a["pairs"]:
        b.append(("h", 2, "Variants compared"))
        b.append(("p", "Each pair of cells with the same players that differ in one option: B minus A, "
                       "95% interval (Newcombe for rates, Welch for means) and two-sided p-value; "
                       "significant: the interval excludes 0. With k comparisons, about k/20 pass "
                       f"p < 0.05 by chance alone (here k = {len(a['pairs'])} for the headline rate)."))
        rows = []
        for p in a["pairs"]:
            figs = "; ".join(f"{n} {_signed(d, False)}" for n, d in p["figures"].items())
            held = " ".join(f"{k}={_fmt(v)}" for k, v in p["held"].items()) or "-"
            row = [f"{p['players']}p", held, p["option"], f"{_fmt(p['a_value'])} → {_fmt(p['b_value'])}",
                   _signed(p["headline"], True)]
            if "first_seat" in p and a["headline"] != "first seat's win rate":
                row[-1] += f"; first seat {_signed(p['first_seat'], True)}"
            rows.append([*row, _signed(p["length"], False), figs or "-"])
        b.append(("table", ["players", "with", "option", "A → B", a["headline"], "mean length", "figures (mean)"],
                  rows))
    return b


def render(blocks: list[tuple], fmt: str, base: Path) -> str:
    """Returns the blocks as Markdown (``md``) or a standalone HTML page (``html``)."""
    out: list[str] = []
    if fmt == "md":
        for blk in blocks:
            if blk[0] == "h":
                out.append(f"{'#' * blk[1]} {blk[2]}\n")
            elif blk[0] == "p":
                out.append(blk[1] + "\n")
            elif blk[0] == "table":
                head, rows = blk[1], blk[2]
                out.append("| " + " | ".join(head) + " |")
                out.append("|" + "---|" * len(head))
                out += ["| " + " | ".join(str(x).replace("|", "\\|") for x in r) + " |" for r in rows]
                out.append("")
            elif blk[0] == "img":
                out.append(f"![{blk[2]}]({blk[1].relative_to(base).as_posix()})\n")
        return "\n".join(out)
    e = html.escape
    out.append("<!doctype html><meta charset='utf-8'><title>lab report</title>"
               "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}"
               "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;font-size:90%}</style>")
    for blk in blocks:
        if blk[0] == "h":
            out.append(f"<h{blk[1]}>{e(blk[2])}</h{blk[1]}>")
        elif blk[0] == "p":
            out.append(f"<p>{e(blk[1])}</p>")
        elif blk[0] == "table":
            out.append("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in blk[1]) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{e(str(x))}</td>" for x in r) + "</tr>" for r in blk[2]]
            out.append("</table>")
        elif blk[0] == "img":
            out.append(f"<p><img src='{e(blk[1].relative_to(base).as_posix())}' alt='{e(blk[2])}'></p>")
    return "\n".join(out)


def write_report(out_dir: str | Path, dest: str | Path | None = None, fmt: str | None = None,
                 plots: bool = True) -> tuple[Path, dict[str, Any]]:
    """Writes the report of a results directory; returns its path and the analysis.

    Args:
        out_dir: the study's results directory.
        dest: the report file (default ``<out_dir>/report.md``); its suffix picks the format.
        fmt: ``md`` or ``html`` (overrides the suffix).
        plots: draw the PNGs (matplotlib).

    Raises:
        StoreError: not a results directory, or one without games.
    """
    from ..core.registry import make
    from .decide import verdict
    from .store import StoreError, load_run, read_rows

    study, meta = load_run(out_dir)
    store_dir = Path(out_dir)
    table, cpu = read_rows((store_dir / "parts").glob("*.parquet"))
    if table is None:
        raise StoreError(f"{out_dir} holds no games yet: run the study first")
    rows = table.to_pylist()
    game = make(study.game, players=study.players[0], **dict(study.cells()[0].options))
    a = analyse(study, rows, game.info.cooperative, game.info.max_return)
    if fmt is None:
        fmt = "html" if dest is not None and str(dest).endswith(".html") else "md"
    dest = Path(dest) if dest is not None else store_dir / f"report.{fmt}"
    dest.parent.mkdir(parents=True, exist_ok=True)
    made = _plots(a, study, dest, dest.stem) if plots else {}
    v = verdict(study, rows, game.info.cooperative, game.info.max_return, store_dir, meta.get("rule_changes", ()))
    text = render(_blocks(a, study, {"cpu": cpu, "verdict": v}, made), fmt, dest.parent)
    dest.write_text(text + "\n", encoding="utf-8")
    a["cpu"] = cpu
    a["plots"] = {k: str(p) for k, p in made.items()}
    a["verdict"] = v
    return dest, a
