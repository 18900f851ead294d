"""The package version is libheurnet's: read from the project() line of
the repository's CMakeLists.txt, next to this folder (pip builds in place).

Where the package finds libheurnet is recorded at build time in its
_config.py: $HEURNET_LIB when set, else the repository's own build
(../build/lib/libheurnet.so, as scripts/test.sh makes it) when there is
one; at run time $HEURNET_LIB still wins. Build files go to a temporary
folder, so `pip install ./python` leaves no build/ or egg-info in the
source tree."""

import atexit
import os
import re
import shutil
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.egg_info import egg_info

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.mkdtemp(prefix="heurnet-pip-")
atexit.register(shutil.rmtree, SCRATCH, True)


def version():
    with open(os.path.join(HERE, "..", "CMakeLists.txt")) as f:
        m = re.search(r"project\(heurnet VERSION ([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("no project(heurnet VERSION x.y.z) line in ../CMakeLists.txt")
    return m.group(1)


def library():
    """The libheurnet.so this package is built against, or None."""
    env = os.environ.get("HEURNET_LIB")
    if env:
        return os.path.abspath(env)
    own = os.path.join(HERE, "..", "build", "lib", "libheurnet.so")
    return os.path.abspath(own) if os.path.exists(own) else None


class BuildPy(build_py):
    """The package with _config.py's LIBPATH set to library()."""

    def run(self):
        super().run()
        lib = library()
        if lib:
            cfg = os.path.join(self.build_lib, "heurnet", "_config.py")
            with open(cfg) as f:
                text = f.read()
            with open(cfg, "w") as f:
                f.write(re.sub(r"(?m)^LIBPATH = None$", "LIBPATH = %r" % lib, text))


class EggInfo(egg_info):
    def initialize_options(self):
        super().initialize_options()
        self.egg_base = SCRATCH


setup(version=version(), cmdclass={"build_py": BuildPy, "egg_info": EggInfo},
      options={"build": {"build_base": os.path.join(SCRATCH, "build")}})
