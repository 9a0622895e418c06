"""The scripts in benchmarks/ (the standing benchmarks) and lab/studies/ (the lab's one-off studies) read as
modules, for tests of the functions they print from (they are not packages: each runs on its own with ``python
benchmarks/NAME.py`` or ``python lab/studies/NAME.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
STUDIES = ROOT / "lab" / "studies"
MATCHES = ROOT / "lab" / "matches"  # the 1 s matches kept, every game (read by the studies)


def _load(folder: Path, name: str, suffix: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"{name}_{suffix}", folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass in the script looks its module up here
    spec.loader.exec_module(module)
    return module


def benchmark_module(name: str) -> ModuleType:
    """``benchmarks/NAME.py``, loaded afresh under the name ``NAME_benchmark``."""
    return _load(BENCHMARKS, name, "benchmark")


def study_module(name: str) -> ModuleType:
    """``lab/studies/NAME.py``, loaded afresh under the name ``NAME_study``."""
    return _load(STUDIES, name, "study")
