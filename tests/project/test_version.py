"""``ddsbind.__version__`` is the installed distribution's version, which is pyproject.toml's."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from importlib import metadata

import ddsbind
from tests.support import REPO


def test_version_is_the_installed_metadata():
    """One version, written once (pyproject.toml), read back from the installed metadata."""
    assert ddsbind.__version__ == metadata.version("ddsbind")
    pyproject = (REPO / "pyproject.toml").read_text()
    assert re.search(rf'^version = "{re.escape(ddsbind.__version__)}"$', pyproject, re.M), ddsbind.__version__


def test_version_without_installed_metadata():
    """A checkout that was never installed still imports, with a version that says so."""
    code = textwrap.dedent(
        """
        from importlib import metadata

        def missing(name):
            raise metadata.PackageNotFoundError(name)

        metadata.version = missing
        import ddsbind
        print(ddsbind.__version__)
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0+unknown"
