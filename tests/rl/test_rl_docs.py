"""docs/research.md's Python examples run as written (issue 13 section 5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_research_doc_has_the_examples() -> None:
    """The page shows a PettingZoo loop, Gymnasium, training, OpenSpiel, ISMCTS and a new agent."""
    text = "\n".join(BLOCKS)
    for needle in ("agent_iter", "parallel_env", "KingmakerEnv", "TrainConfig", "random_sim_test",
                   "ISMCTSBot", "register_agent"):
        assert needle in text, needle


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_research_doc_example_runs(index: int, tmp_path, monkeypatch) -> None:
    """Each ```python block of docs/research.md runs without error."""
    monkeypatch.chdir(tmp_path)
    code = BLOCKS[index].replace("/tmp/kk-tiny.npz", str(tmp_path / "kk-tiny.npz"))
    exec(compile(code, f"research.md block {index}", "exec"), {"__name__": f"research_doc_{index}"})  # noqa: S102
