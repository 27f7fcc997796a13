"""Runtime-mode reach on the real-bug sets: which buggy programs report a GL code when run checked.

    python benchmarks/runtime_recall.py [--jobs N] [--action warn|raise] [--device cuda] [--level sync] [--verbose]

Runs every cases/*/bug.py, cases/*/fixed.py and clean/*.py of `<repo>/../shared/bugs` and of
`<repo>/benchmarks/bugs` (each set skipped when absent) under `python -m gather_lint.runtime`.
A program is "reported" when a GL code appears in its stderr. Prints detected/total by bug class,
and every fixed/clean program that reported anything (must be none).

`--device cuda` runs each program with torch's default device set to CUDA, so that the tensors its
factories make live there (tensors it builds from numpy or loads stay on the CPU: a fixed program
that then mixes devices fails unchecked too, and is listed apart). `--level` picks the runtime's
level (async, the default, reads no value back from an accelerator).
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
SETS = [("shared", REPO.parent / "shared" / "bugs"), ("benchmarks", REPO / "benchmarks" / "bugs")]
GL_CODE = re.compile(r"\bGL0\d\d\b")


# `python -m gather_lint.runtime ...` with torch's default device set first (argv[1] names it)
_ON_DEVICE = ("import runpy, sys, torch; torch.set_default_device(sys.argv.pop(1)); "
              "runpy.run_module('gather_lint.runtime', run_name='__main__', alter_sys=True)")


def run(script: Path, action: str, timeout: float, device: str = "cpu", level: str = "async"):
    """The finished run of `script` under `python -m gather_lint.runtime` (action "off": unchecked), or
    None when it timed out."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               GATHER_LINT_RUNTIME=action, PYTHONWARNINGS="default")
    runner = ["-c", _ON_DEVICE, device] if device != "cpu" else ["-m", "gather_lint.runtime"]
    cmd = [sys.executable] + runner + ["--level", level] + (["--warn"] if action == "warn" else []) + [script.name]
    try:
        return subprocess.run(cmd, cwd=script.parent, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def run_checked(script: Path, action: str, timeout: float, device: str = "cpu", level: str = "async"):
    """The GL codes a checked run of `script` printed to stderr (sorted), or ['timeout']; and its stderr."""
    done = run(script, action, timeout, device, level)
    if done is None:
        return ["timeout"], ""
    return sorted(set(GL_CODE.findall(done.stderr))), done.stderr


def _listed(found) -> None:
    for path, codes, last in found:
        print(f"  {path}: {' '.join(codes)}  {last[0][:160]}")


def programs(root: Path):
    """(kind, bug class, path, effect) for each program of one set: kind is bug, fixed or clean; effect is
    what the bug does in torch ("silent" or "raises", from meta.toml's runtime_bug), None for the others."""
    for case in sorted((root / "cases").glob("*/")):
        meta = tomllib.loads((case / "meta.toml").read_text()) if (case / "meta.toml").exists() else {}
        klass = meta.get("bug_class", "other")
        for kind in ("bug", "fixed"):
            if (case / f"{kind}.py").exists():
                yield kind, klass, case / f"{kind}.py", effect(meta) if kind == "bug" else None
    for path in sorted((root / "clean").glob("*.py")):
        yield "clean", "clean", path, None


def effect(meta: dict) -> str:
    """Whether a bug is silent in torch (a wrong result: what a debug mode is for) or raises."""
    return "silent" if str(meta.get("runtime_bug", "")).startswith("silent") else "raises"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--action", choices=("warn", "raise"), default="warn")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--device", default="cpu", help="torch's default device in each program (e.g. cuda)")
    parser.add_argument("--level", choices=("async", "sync"), default="async")
    parser.add_argument("--verbose", action="store_true", help="one line per program")
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds for the whole run: programs not started by then are counted as not run, "
                             "so a run cut short still prints what it measured")
    parser.add_argument("sets", nargs="*", type=Path, help="folders holding cases/ and clean/ (default: both sets)")
    opts = parser.parse_args()
    false_reports = 0
    deadline = time.monotonic() + opts.budget if opts.budget else None

    def checked(program):
        if deadline is not None and time.monotonic() > deadline:
            return ["not run"], ""
        return run_checked(program[2], opts.action, opts.timeout, opts.device, opts.level)

    for set_name, root in [(path.name, path) for path in opts.sets] or SETS:
        if not (root / "cases").is_dir():
            print(f"{set_name}: {root.name} not found, skipped")
            continue
        found = list(programs(root))
        with ThreadPoolExecutor(opts.jobs) as pool:
            results = list(pool.map(checked, found))
        not_run = sum(codes == ["not run"] for codes, _ in results)
        by_class = collections.defaultdict(lambda: [0, 0])
        by_effect = collections.defaultdict(lambda: [0, 0])
        noisy = []
        for (kind, klass, path, bug_effect), (codes, stderr) in zip(found, results):
            if opts.verbose:
                print(f"  {kind:5} {path.parent.name if kind != 'clean' else path.name:60} {' '.join(codes) or '-'}")
            if codes == ["not run"]:
                continue
            if kind == "bug":
                for tally in (by_class[klass], by_effect[bug_effect]):
                    tally[1] += 1
                    tally[0] += bool(codes) and codes != ["timeout"]
            elif codes:
                noisy.append((path.relative_to(root), codes, stderr.strip().splitlines()[-1:] or [""]))
        hit = sum(d for d, _ in by_class.values())
        total = sum(t for _, t in by_class.values())
        print(f"\n{set_name} set ({root}): {hit}/{total} buggy programs report a GL code "
              f"({100 * hit / max(total, 1):.0f}%)" + (f"; {not_run} programs not run (out of time)" if not_run else ""))
        print(f"{'bug class':28} {'detected':>9}")
        for klass in sorted(by_class):
            d, t = by_class[klass]
            print(f"{klass:28} {d:>4}/{t:<4}")
        print(f"{'what the bug does in torch':28} {'detected':>9}")
        for bug_effect in ("silent", "raises"):
            d, t = by_effect[bug_effect]
            print(f"{bug_effect:28} {d:>4}/{t:<4}")
        unrunnable = []
        if noisy and opts.device != "cpu":  # a program that fails on this device unchecked too is not a false report
            runs = [run(root / path, "off", opts.timeout, opts.device) for path, _, _ in noisy]
            fails = [done is None or done.returncode != 0 for done in runs]
            unrunnable = [n for n, failed in zip(noisy, fails) if failed]
            noisy = [n for n, failed in zip(noisy, fails) if not failed]
        print(f"fixed/clean programs that reported anything: {len(noisy)}")
        _listed(noisy)
        if unrunnable:
            print(f"fixed/clean programs that fail on {opts.device} unchecked too (not counted): {len(unrunnable)}")
            _listed(unrunnable)
        false_reports += len(noisy)
    return 1 if false_reports else 0


if __name__ == "__main__":
    sys.exit(main())
