"""benchmarks/server.py --workers runs: one and two `bigtwo serve` processes on PostgreSQL (two behind nginx, with
the project's configuration), each measured for a moment; both rows come out. No timing is asserted: the figures
are the benchmark's to report, the test only says it still runs end to end.

Skips without PostgreSQL (and without nginx, which the two processes sit behind)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server_support import ROOT, postgres_url_or_skip

pytestmark = [pytest.mark.xdist_group("postgresql"), pytest.mark.slow]  # starts several servers and nginx: about 30 s


def test_the_benchmark_measures_one_and_two_processes_side_by_side():
    url = postgres_url_or_skip()
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        pytest.skip("no nginx here: install Debian's nginx (apt-get install nginx) to run several processes")
    args = ["--workers", "1,2", "--seconds", "1.5", "--warmup", "0.5", "--bot-games", "2", "--clients", "4"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "server.py"), *args, "--database", url],
        capture_output=True,
        text=True,
        timeout=240,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {int(m[1]): m[2] for m in re.finditer(r"(?m)^\s+(\d+)\s+([\d,]+)\s+[\d.]+\s", done.stdout)}
    assert set(rows) == {1, 2}, done.stdout
    # both counted actions (the load reached every process through nginx), and the ratio column is against N=1
    assert all(int(v.replace(",", "")) > 0 for v in rows.values()), done.stdout
    assert re.search(r"(?m)^\s+1\s+[\d,]+\s+1\.00\s", done.stdout), done.stdout
