"""The code's own checks, run with the tests (CI runs only the test suite): ruff's lint and format, and mypy
(strict on the engine core, strict equality everywhere; settings in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_ruff_lint_and_format():
    lint = run("ruff", "check", "src", "tests", "benchmarks", "lab")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = run("ruff", "format", "--check", "src", "tests", "benchmarks", "lab")
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


@pytest.mark.slow
def test_mypy():
    out = run("mypy")
    assert out.returncode == 0, out.stdout + out.stderr
