"""The README's Python example runs as written, and its Quick start is the two commands."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs(capsys):
    text = README.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README has a Python example"
    exec(compile(blocks[0], "README.md", "exec"), {})  # noqa: S102 - our own README
    out = capsys.readouterr().out
    assert "'game': 'kings-kilt'" in out


def test_readme_quick_start_is_exactly_two_commands():
    text = README.read_text()
    quick = text.split("## Quick start", 1)[1].split("```", 2)[1]
    assert [line for line in quick.strip().splitlines()] == ["make play", "make test"]
