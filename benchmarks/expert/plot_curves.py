"""Draws the expert networks' learning curves (benchmarks/expert/<game>-<n>p.csv) as one PNG.

    .venv/bin/python benchmarks/expert/plot_curves.py   # writes benchmarks/expert/curves.png

Per network and generation: held-out policy loss (cross-entropy against the
search's visit shares), held-out value loss (mean squared error of the scaled
returns).
"""

from __future__ import annotations

import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = Path(__file__).parent


def main() -> None:
    runs = {}
    for path in sorted(HERE.glob("*.csv")):
        with open(path) as f:
            rows = list(csv.DictReader(f))
        if rows and "generation" in rows[0]:
            runs[path.stem] = rows
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    styles = ("-", "--", ":")  # the colour cycle has ten colours: more lines change the style
    for i, (name, rows) in enumerate(runs.items()):
        gen = [int(r["generation"]) for r in rows]
        for ax, key in zip(axes, ("held_policy_loss", "held_value_loss")):
            ys = [float(r[key]) if r.get(key) not in (None, "") else None for r in rows]
            pts = [(g, y) for g, y in zip(gen, ys) if y is not None]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name,
                        linestyle=styles[i // 10 % len(styles)])
    titles = ("held-out policy loss (CE vs visits)", "held-out value loss (MSE; a constant 0.5 scores 0.25 at 2p)")
    for ax, title in zip(axes, titles):
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("generation (0: distilled from ismcts:normal)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    out = HERE / "curves.png"
    fig.savefig(out, dpi=90)
    print(out)


if __name__ == "__main__":
    main()
