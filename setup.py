"""The package's one compiled part, ``bigtwo._core`` (C++17, bound with pybind11).

Everything else is in pyproject.toml. The extension is optional: where no C++ compiler is found (or it fails),
setuptools skips it and the package installs and plays in pure Python (``bigtwo.native`` says so once).
"""

import glob
import os
import sys

from setuptools import setup

ext_modules = []
if os.environ.get("BIGTWO_NATIVE", "1") != "0":
    try:
        from pybind11.setup_helpers import Pybind11Extension
    except ImportError:  # built without build isolation and without pybind11: pure Python
        print("bigtwo: pybind11 is not installed; building without the compiled core", file=sys.stderr)
    else:
        ext_modules.append(
            Pybind11Extension(
                "bigtwo._core",
                sorted(glob.glob("src/bigtwo/_*.cpp")),  # the bindings and any other translation unit
                depends=sorted(glob.glob("src/bigtwo/_*.hpp")),
                cxx_std=17,
                extra_compile_args=["-O2"],
                optional=True,  # a failed compile leaves the pure-Python engine, not a failed install
            )
        )

setup(ext_modules=ext_modules)
