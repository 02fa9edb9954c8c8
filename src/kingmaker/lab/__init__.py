"""The balance lab: studies of thousands of bot games per variant, with intervals and plots.

    kingmaker lab run studies/kings-kilt/seats.toml --jobs 2     # plays, resumes, reuses
    kingmaker lab report runs/lab/kings-kilt-seats --html         # tables and PNG plots
    kingmaker lab merge runs/lab/a runs/lab/b-from-another-machine

Parts (see docs/lab.md):

- ``study``: a study from a TOML file or flags (``load_study``, ``study_from_flags``).
- ``play``: one game of a cell as one row (``play_chunk``), the same on every backend.
- ``backends``: a local process pool, local Ray or a Ray cluster (the arena uses them too).
- ``store``: the Parquet results, resumable and mergeable (pyarrow).
- ``runner``: ``run_study``: plays what is missing, with a progress bar.
- ``analysis``: win rates with Wilson intervals, variant differences (``stats``: the
  project's one Wilson interval).
- ``report``: Markdown or HTML with matplotlib plots.

This package imports no third-party module at import time: ``stats``, ``study``,
``play`` and ``backends`` are plain Python; ``store`` and ``report`` need the
``lab`` extra (pyarrow, matplotlib; Ray for ``--ray``).
"""

from __future__ import annotations

from .stats import wilson
from .study import Study, StudyError, load_study, study_from_flags

__all__ = ["Study", "StudyError", "load_study", "study_from_flags", "wilson"]
