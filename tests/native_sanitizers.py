"""The compiled core under AddressSanitizer and UndefinedBehaviorSanitizer: build ``_core.cpp`` with both into a
temporary folder, then (in a fresh interpreter with the sanitizer runtimes preloaded) load that build as
``bigtwo._core`` and run the differential check on every covered preset at every table size, plus the
play-outs, the batched loop and the batched environment, and ``Game`` with the core behind it against ``Game`` in
the Python engine (which exercises the bindings Game uses: step, legal_objects, mirror, undo_states). Any
sanitizer report aborts the run (exit status not 0).

Run: python tests/native_sanitizers.py [--rounds 2]   (needs g++ and pybind11; tests/test_native.py runs it
as a long run: -m long)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# every translation unit of the extension (setup.py lists the same files)
SOURCES = sorted((ROOT / "src" / "bigtwo").glob("_*.cpp"))

CHECK = """
import importlib.util, sys
sys.path.insert(0, {root!r})
spec = importlib.util.spec_from_file_location("bigtwo._core", {lib!r})
core = importlib.util.module_from_spec(spec)
spec.loader.exec_module(core)
sys.modules["bigtwo._core"] = core
import bigtwo
bigtwo._core = core
from bigtwo import list_presets, load_rules, native
assert native.available() and native.core() is core
from tests.native_diff import Tally, compare_games, compare_rules
import pickle, random
from bigtwo.envs.batched import BatchedEnv
total = Tally()
for name in list_presets():
    rules = load_rules(name)
    for n in range(rules.min_players, rules.max_players + 1):
        total.add(compare_rules(rules, n, rounds={rounds}, seed=n))
        total.add(compare_games(rules, n, rounds={rounds}, seed=n, undo_rate=0.2))
        t = native.tables(rules.engine_for(n))
        t.random_games(n, 20, seed=n)
        env = BatchedEnv(rules, n, num_envs=4, seed=n)  # the compiled batch (_batch.cpp), pickled on the way
        assert env.native
        d, _ = env.reset()
        pick = random.Random(n)
        for _ in range(30 * n):
            d, _ = env.step(d, [pick.randrange(len(p)) for p in d.plays])
        pickle.loads(pickle.dumps(env)).decisions()
assert not total.mismatches, total.mismatches[:3]
print(f"sanitized: {{total.decisions}} decisions, {{total.rounds}} rounds, 0 mismatches")
"""


def build(out: Path) -> Path:
    import pybind11

    lib = out / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    cmd = [
        os.environ.get("CXX", "g++"),
        "-std=c++17",
        "-O1",
        "-g",
        "-fno-omit-frame-pointer",
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=undefined",
        "-shared",
        "-fPIC",
        f"-I{pybind11.get_include()}",
        f"-I{sysconfig.get_paths()['include']}",
        *map(str, SOURCES),
        "-o",
        str(lib),
    ]
    subprocess.run(cmd, check=True)
    return lib


def runtime(name: str) -> str:
    cxx = os.environ.get("CXX", "g++")
    return subprocess.run([cxx, f"-print-file-name={name}"], capture_output=True, text=True, check=True).stdout.strip()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2, help="rounds per preset and table size")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lib = build(Path(tmp))
        env = {
            **os.environ,
            "LD_PRELOAD": f"{runtime('libasan.so')}:{runtime('libubsan.so')}",
            # Python's own allocations are not ours to report; a leak check at exit would list the interpreter's
            "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
            "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
            "PYTHONMALLOC": "malloc",
        }
        code = CHECK.format(root=str(ROOT), lib=str(lib), rounds=args.rounds)
        done = subprocess.run([sys.executable, "-c", code], env=env)
        return done.returncode


if __name__ == "__main__":
    sys.exit(main())
