"""The package version is libheurnet's: read from the project() line of
the repository's CMakeLists.txt, next to this folder (pip builds in place)."""

import os
import re

from setuptools import setup


def version():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "CMakeLists.txt")) as f:
        m = re.search(r"project\(heurnet VERSION ([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("no project(heurnet VERSION x.y.z) line in ../CMakeLists.txt")
    return m.group(1)


setup(version=version())
