#!/usr/bin/env python3
"""sitegen's mutation check: plants each one-line bug of scripts/mutants.txt in a copy of the
working tree, one at a time, builds, and runs the tests named for it. A mutant some test catches
is "killed"; one every test passes with "survived". Every mutant must be killed.

    scripts/mutants.py                 # the whole list (2½-3 hours on 2 cores: README "The mutation check")
    scripts/mutants.py NAME...         # only these mutants
    scripts/mutants.py --list          # the names
    scripts/mutants.py --changed REV   # the mutants of the source files changed since REV (committed or not)
    scripts/mutants.py --tree DIR      # mutate a copy of DIR (a git work tree) instead of this one
    scripts/mutants.py --resume LOG    # skip the mutants LOG (this script's output) shows killed

A run prints the commit it mutates. `--resume` goes on with a run that was cut (the whole list
outlasts a working session): it skips the mutants the log shows killed only if the tree is that
commit, clean, or differs from it in documentation alone (no file under Sources/, Tests/, e2e/,
scripts/, fuzz/ or large/, nor Package.swift); otherwise it refuses. The resumed run builds but
does not run the baseline's tests again (they passed on this code).

The copy lives in $MUTANTS_DIR (default /tmp/sitegen-mutants-<hash of the tree's path>, so two work
trees never share one) and keeps its .build between runs, so only the first run builds from scratch.
The working tree itself is never modified.
Exit status: 0 when every mutant is killed; 1 when one survived, does not compile, or no longer
matches its source line (fix the list); 2 when the unmutated tests already fail.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIST = REPO / "scripts" / "mutants.txt"
WORK = Path(os.environ.get("MUTANTS_DIR", "/tmp/sitegen-mutants-"
                           + __import__("hashlib").sha256(str(REPO).encode()).hexdigest()[:8]))
BUILD_TIMEOUT = 1800
TEST_TIMEOUT = 900
# A mutant's tests may take this many times as long as they took in the baseline (at least
# TIMEOUT_FLOOR seconds): a mutant that lifts a limit makes the hostile-input tests run for minutes
# before they fail. One that runs past it is reported as "killed (timed out)", and listed.
TIMEOUT_FACTOR = 5
TIMEOUT_FLOOR = 60


@dataclass
class Mutant:
    name: str
    file: str
    test: str
    before: str
    after: str
    line: int  # of the block in mutants.txt

    @property
    def is_e2e(self) -> bool:
        return self.test.startswith("e2e:")


def parse(text: str) -> list[Mutant]:
    mutants, block, start = [], {}, 0

    def flush():
        if not block:
            return
        missing = [k for k in ("name", "file", "test", "from", "to") if k not in block]
        if missing:
            sys.exit(f"{LIST}:{start}: mutant '{block.get('name', '?')}' lacks {', '.join(missing)}")
        mutants.append(Mutant(block["name"], block["file"], block["test"], block["from"], block["to"], start))

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if m := re.fullmatch(r"\[([a-z0-9-]+)\]", line.strip()):
            flush()
            block, start = {"name": m.group(1)}, n
            continue
        key, sep, value = line.partition(":")
        if not sep or key not in ("file", "test", "from", "to") or not block:
            sys.exit(f"{LIST}:{n}: expected '[name]' or 'file:', 'test:', 'from:', 'to:', found {line!r}")
        block[key] = value.strip() if key in ("file", "test") else value.removeprefix(" ").lstrip(" ")
    flush()
    names = [m.name for m in mutants]
    if dup := sorted({x for x in names if names.count(x) > 1}):
        sys.exit(f"{LIST}: mutant names used twice: {', '.join(dup)}")
    return mutants


def sync(tree: Path) -> None:
    """Makes WORK's sources equal to `tree`'s (tracked and untracked files, not ignored ones)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=tree,
                            check=True, capture_output=True).stdout.decode().split("\0")
    wanted = {p for p in listed if p and (tree / p).is_file()}
    if (tree / "Package.resolved").is_file():  # ignored by git; saves resolving the packages again
        wanted.add("Package.resolved")
    WORK.mkdir(parents=True, exist_ok=True)
    for rel in wanted:
        src, dst = tree / rel, WORK / rel
        if not dst.is_file() or dst.read_bytes() != src.read_bytes():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    for path in list(WORK.rglob("*")):
        rel = path.relative_to(WORK).as_posix()
        if rel.split("/")[0] == ".build" or "__pycache__" in rel or ".pytest_cache" in rel:
            continue
        if path.is_file() and rel not in wanted:
            path.unlink()


def run(cmd: list[str], timeout: int, cwd: Path, env: dict | None = None) -> tuple[int, str]:
    """Runs `cmd` in a process group of its own: on a timeout the whole group is killed, so no
    server a test started goes on using the machine."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors="replace", env={**os.environ, **(env or {})}, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return -1, (out or "") + f"\n(timed out after {timeout} s)"


def build() -> tuple[int, str]:
    return run(["swift", "build", "--build-tests"], BUILD_TIMEOUT, WORK)


def test(spec: str, timeout: int = TEST_TIMEOUT) -> tuple[int, str]:
    """Runs the tests `spec` names in WORK; 0 when they pass, -1 when they ran past `timeout`."""
    if spec.startswith("e2e:"):
        args = __import__("shlex").split(spec[4:])
        return run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *args], timeout,
                   WORK / "e2e", {"SITEGEN": str(WORK / ".build/debug/sitegen"), "SE_OFFLINE": "1"})
    xctest = next((WORK / ".build/debug").glob("*PackageTests.xctest"))
    filters = [a for f in spec.split() for a in ("--filter", f)]
    # The copy is not beside ../shared: the Mustache spec tests read it where the real tree has it.
    spec_dir = {"MUSTACHE_SPEC_DIR": os.environ.get("MUSTACHE_SPEC_DIR", str(REPO.parent / "shared" / "mustache-spec"))}
    code, out = run([str(xctest), "--testing-library", "swift-testing", *filters], timeout, WORK, spec_dir)
    # A filter that selects nothing passes vacuously: that is a defect of the list, not a survivor.
    if re.search(r"Test run with 0 tests", out):
        return 99, out
    return code, out


def touch_importers(file: str) -> None:
    """A C header of a system-library target (Sources/CVips/shim.h) is not a dependency SwiftPM
    tracks: the Swift files importing its module are touched so the build sees the change."""
    if file.endswith(".swift") or not file.startswith("Sources/"):
        return
    module = Path(file).parts[1]
    for swift in (WORK / "Sources").rglob("*.swift"):
        if re.search(rf"^\s*(?:\w+\s+)?import\s+{re.escape(module)}\b", swift.read_text(), re.M):
            swift.touch()


CODE = ("Sources/", "Tests/", "e2e/", "scripts/", "fuzz/", "large/", "Package.swift")


def commit_of(tree: Path) -> str:
    """HEAD of `tree`, with " (modified)" when its work tree differs from it."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=tree, capture_output=True, text=True).stdout.strip()
    return head + (" (modified)" if dirty else "")


def killed_in(log: Path, tree: Path) -> tuple[set[str], bool]:
    """The mutants `log` shows killed, if it mutated the code `tree` holds (see the docstring), and
    whether its baseline passed."""
    text = log.read_text(errors="replace")
    m = re.search(r"^commit: ([0-9a-f]{40})$", text, re.M)
    if not m:
        sys.exit(f"{log}: no 'commit:' line of a run of a clean tree")
    code = [f for f in changed_files(tree, m[1]) if f.startswith(CODE)]
    if code:
        sys.exit(f"{log} mutated {m[1][:12]}; the code changed since ({', '.join(sorted(code)[:5])}): run the whole list")
    killed = set(re.findall(r"^\[\d+/\d+\] killed\s+(\S+)", text, re.M))
    return killed, re.search(r"^baseline: built and passing", text, re.M) is not None


def baseline_times(path: Path, commit: str) -> dict[str, float]:
    """The seconds each test set took in the baseline of a run of `commit` (none if another's)."""
    try:
        kept = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return kept["times"] if kept.get("commit") == commit else {}


def tail(text: str, lines: int = 15) -> str:
    return "\n".join("    " + l for l in text.strip().splitlines()[-lines:])


def changed_files(tree: Path, rev: str) -> set[str]:
    """The files that differ between `rev` and the work tree (commits, staged and unstaged
    changes), and the untracked ones."""
    def git(*cmd: str) -> list[str]:
        p = subprocess.run(["git", *cmd], cwd=tree, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"git {' '.join(cmd)}: {p.stderr.strip()}")
        return [line for line in p.stdout.splitlines() if line]
    return set(git("diff", "--name-only", rev)) | set(git("ls-files", "-o", "--exclude-standard"))


def main() -> int:
    args = sys.argv[1:]
    tree = REPO
    if "--tree" in args:
        k = args.index("--tree")
        tree = Path(args[k + 1]).resolve()
        del args[k:k + 2]
    mutants = parse(LIST.read_text())
    skipped: set[str] = set()
    baseline_passed = False
    if "--resume" in args:
        k = args.index("--resume")
        if k + 1 >= len(args):
            sys.exit("--resume needs the log of the run to go on with")
        skipped, baseline_passed = killed_in(Path(args[k + 1]), tree)
        del args[k:k + 2]
    if "--changed" in args:
        k = args.index("--changed")
        if k + 1 >= len(args):
            sys.exit("--changed needs a revision, e.g. --changed main or --changed HEAD~3")
        touched = changed_files(tree, args[k + 1])
        del args[k:k + 2]
        mutants = [m for m in mutants if m.file in touched]
        print(f"--changed: {len(touched)} files changed, {len(mutants)} mutants in them", flush=True)
        if not mutants:
            return 0
    if "--list" in args:
        for m in mutants:
            print(f"{m.name:40} {m.file}")
        return 0
    if args:
        unknown = [a for a in args if a not in {m.name for m in mutants}]
        if unknown:
            sys.exit(f"unknown mutant(s): {', '.join(unknown)} (see --list)")
        mutants = [m for m in mutants if m.name in args]

    if skipped:
        mutants = [m for m in mutants if m.name not in skipped]
        print(f"--resume: {len(skipped)} killed in that run at this commit, skipped", flush=True)
    began = time.monotonic()
    print(f"mutants: {len(mutants)} from {LIST.relative_to(REPO)}, in {WORK}", flush=True)
    # Read once: the tree may move on while the run goes (its copy does not).
    commit = commit_of(tree)
    print(f"commit: {commit}", flush=True)
    sync(tree)
    code, out = build()
    if code != 0:
        print("the unmutated tree does not build:\n" + tail(out, 30))
        return 2
    # A test set that selects nothing guards nothing: its mutants are reported, not run. A resumed
    # run's baseline passed on this code already; its times are kept in the copy.
    selects_nothing = set()
    times_file = WORK / ".build" / "mutants-baseline-times.json"  # in .build: `sync` keeps it
    times = baseline_times(times_file, commit) if baseline_passed else {}
    for spec in sorted({m.test for m in mutants} if not baseline_passed else ()):
        spec_began = time.monotonic()
        code, out = test(spec)
        times[spec] = time.monotonic() - spec_began
        if code == 99:
            selects_nothing.add(spec)
        elif code != 0:
            # The whole output is kept: a crash report's frames come before its last 30 lines.
            kept = WORK / ".build" / "mutants-baseline-failure.log"
            kept.write_text(out)
            print(f"the test set '{spec}' fails without any mutant (all of its output: {kept}):\n" + tail(out, 30))
            return 2
    if not baseline_passed:
        times_file.write_text(json.dumps({"commit": commit, "times": times}))
    print(f"baseline: built and passing in {time.monotonic() - began:.0f} s"
          + (" (its tests: in the resumed run)" if baseline_passed else ""), flush=True)

    results: dict[str, list[str]] = {"killed": [], "survived": [], "no test selected": [], "does not compile": [], "stale": []}
    timed_out: list[str] = []
    for i, m in enumerate(mutants, 1):
        started = time.monotonic()
        path = WORK / m.file
        original = path.read_bytes()
        text = original.decode()
        if m.test in selects_nothing:
            status, detail = "no test selected", f"    '{m.test}' selects no test (mutants.txt:{m.line})"
        elif text.count(m.before) != 1:
            status, detail = "stale", f"'from' occurs {text.count(m.before)} times in {m.file} (mutants.txt:{m.line})"
        else:
            path.write_text(text.replace(m.before, m.after))
            touch_importers(m.file)
            try:
                code, out = build()
                if code != 0:
                    status, detail = "does not compile", tail(out)
                else:
                    limit = int(max(TIMEOUT_FLOOR, TIMEOUT_FACTOR * times[m.test])) if m.test in times else TEST_TIMEOUT
                    code, out = test(m.test, limit)
                    status = "no test selected" if code == 99 else "killed" if code != 0 else "survived"
                    if code == -1:
                        timed_out.append(m.name)
                    detail = "" if code != 0 else f"    {m.test} passed with {m.file}: {m.after.strip()}"
            finally:
                path.write_bytes(original)
                touch_importers(m.file)
        results[status].append(m.name)
        late = " (timed out)" if timed_out and timed_out[-1] == m.name else ""
        print(f"[{i}/{len(mutants)}] {status:8} {m.name} ({time.monotonic() - started:.0f} s){late}", flush=True)
        if detail and status != "killed":
            print(detail, flush=True)

    total = len(mutants)
    print(f"\nkilled {len(results['killed'])}/{total} in {time.monotonic() - began:.0f} s")
    if timed_out:
        print(f"killed by running past {TIMEOUT_FACTOR}× the baseline's time: {', '.join(timed_out)}")
    for status in ("survived", "no test selected", "does not compile", "stale"):
        if results[status]:
            print(f"{status}: {', '.join(results[status])}")
    return 0 if len(results["killed"]) == total else 1


if __name__ == "__main__":
    sys.exit(main())
