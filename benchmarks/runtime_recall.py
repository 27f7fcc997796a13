"""Runtime-mode reach on the real-bug sets: which buggy programs report a GL code when run checked.

    python benchmarks/runtime_recall.py [--jobs N] [--action warn|raise] [--verbose]

Runs every cases/*/bug.py, cases/*/fixed.py and clean/*.py of `<repo>/../shared/bugs` and of
`<repo>/benchmarks/bugs` (each set skipped when absent) under `python -m gather_lint.runtime`.
A program is "reported" when a GL code appears in its stderr. Prints detected/total by bug class,
and every fixed/clean program that reported anything (must be none).
"""
import argparse
import collections
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
SETS = [("shared", REPO.parent / "shared" / "bugs"), ("benchmarks", REPO / "benchmarks" / "bugs")]
GL_CODE = re.compile(r"\bGL0\d\d\b")


def run_checked(script: Path, action: str, timeout: float):
    """The GL codes a checked run of `script` printed to stderr (sorted), or ['timeout']."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               GATHER_LINT_RUNTIME=action, PYTHONWARNINGS="default")
    cmd = [sys.executable, "-m", "gather_lint.runtime"] + (["--warn"] if action == "warn" else []) + [script.name]
    try:
        done = subprocess.run(cmd, cwd=script.parent, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ["timeout"], ""
    return sorted(set(GL_CODE.findall(done.stderr))), done.stderr


def programs(root: Path):
    """(kind, bug class, path) for each program of one set: kind is bug, fixed or clean."""
    for case in sorted((root / "cases").glob("*/")):
        meta = tomllib.loads((case / "meta.toml").read_text()) if (case / "meta.toml").exists() else {}
        klass = meta.get("bug_class", "other")
        for kind in ("bug", "fixed"):
            if (case / f"{kind}.py").exists():
                yield kind, klass, case / f"{kind}.py"
    for path in sorted((root / "clean").glob("*.py")):
        yield "clean", "clean", path


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--action", choices=("warn", "raise"), default="warn")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--verbose", action="store_true", help="one line per program")
    parser.add_argument("sets", nargs="*", type=Path, help="folders holding cases/ and clean/ (default: both sets)")
    opts = parser.parse_args()
    false_reports = 0
    for set_name, root in [(path.name, path) for path in opts.sets] or SETS:
        if not (root / "cases").is_dir():
            print(f"{set_name}: {root.name} not found, skipped")
            continue
        found = list(programs(root))
        with ThreadPoolExecutor(opts.jobs) as pool:
            results = list(pool.map(lambda p: run_checked(p[2], opts.action, opts.timeout), found))
        by_class = collections.defaultdict(lambda: [0, 0])
        noisy = []
        for (kind, klass, path), (codes, stderr) in zip(found, results):
            if opts.verbose:
                print(f"  {kind:5} {path.parent.name if kind != 'clean' else path.name:60} {' '.join(codes) or '-'}")
            if kind == "bug":
                by_class[klass][1] += 1
                by_class[klass][0] += bool(codes) and codes != ["timeout"]
            elif codes:
                noisy.append((path.relative_to(root), codes, stderr.strip().splitlines()[-1:] or [""]))
        hit = sum(d for d, _ in by_class.values())
        total = sum(t for _, t in by_class.values())
        print(f"\n{set_name} set ({root}): {hit}/{total} buggy programs report a GL code "
              f"({100 * hit / max(total, 1):.0f}%)")
        print(f"{'bug class':28} {'detected':>9}")
        for klass in sorted(by_class):
            d, t = by_class[klass]
            print(f"{klass:28} {d:>4}/{t:<4}")
        print(f"fixed/clean programs that reported anything: {len(noisy)}")
        for path, codes, last in noisy:
            print(f"  {path}: {' '.join(codes)}  {last[0][:160]}")
        false_reports += len(noisy)
    return 1 if false_reports else 0


if __name__ == "__main__":
    sys.exit(main())
