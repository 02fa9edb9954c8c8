"""The games. Each subpackage registers its game when imported; this imports them all."""

from __future__ import annotations

import importlib
import pkgutil

for _mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _mod.ispkg and not _mod.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_mod.name}")
