"""Static linter speed and memory on a source tree, next to flake8 (pyflakes only) and TorchFix.

    python benchmarks/lint_speed.py [TREE] [--baseline CHECKOUT] [--no-flake8]
    python benchmarks/lint_speed.py TREE --instructions [--baseline CHECKOUT]
        (default TREE: corpus/transformers; see ../shared/corpus/fetch.sh)

--baseline adds cold runs of another checkout of gather-lint (say `git worktree add ../base v1`) on the
same tree, interleaved with this one's, so a change in speed is read as a ratio taken in one run; the
ratio of CPU seconds (all processes) is printed too, as it moves less than wall time on a loaded machine.

Runs, in one go on the same tree: gather-lint cold (no cache), warm (cache filled, nothing changed),
after touching one file, and with one job; flake8 --select=F; TorchFix when installed. Prints wall
time, CPU time, files/s, lines/s, peak memory of the largest process, and the ratio to flake8.
--instructions counts, instead, the instructions one cold run with one job executes under valgrind's
callgrind (this checkout and the baseline): on a shared machine wall and CPU time spread by 10% between
identical runs, the count repeats to a fraction of a percent. Take a few hundred files as TREE: callgrind
runs Python some 50 times slower.

Targets for all of transformers on 2 cores: cold <= 10 s, warm <= 2 s, one changed file <= 0.5 s
beyond start-up, peak memory <= 500 MB.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import callgrind

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_MEASURE = r"""
import json, resource, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024, "rc": proc.returncode}))
"""


def checkout_env(code_root):
    """The environment that runs `code_root`'s gather_lint as an installed copy runs: with its bytecode
    cached (a machine that sets PYTHONDONTWRITEBYTECODE would compile every module on every run)."""
    env = dict(os.environ, PYTHONPATH=code_root)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # writes the bytecode once; run from code_root, as `-m` puts the working directory first on the path: run
    # from another checkout it compiled that one's modules, and the measured run then compiled code_root's
    subprocess.run([sys.executable, "-m", "gather_lint", "--isolated", "--no-cache", os.devnull], env=env,
                   cwd=code_root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return env


def measure(cmd, cwd, code_root=ROOT):
    env = checkout_env(code_root)  # which checkout's gather_lint runs
    out = subprocess.run([sys.executable, "-c", _MEASURE, *cmd], cwd=cwd, capture_output=True, text=True,
                         check=True, env=env)
    return json.loads(out.stdout)


def tree_size(tree):
    files = lines = 0
    for directory, _, names in os.walk(tree):
        for name in names:
            if name.endswith(".py"):
                files += 1
                with open(os.path.join(directory, name), "rb") as handle:
                    lines += handle.read().count(b"\n")
    return files, lines


def main():
    parser = argparse.ArgumentParser(description="gather-lint speed on a source tree")
    parser.add_argument("tree", nargs="?", default=os.path.join(ROOT, "corpus", "transformers"))
    parser.add_argument("--baseline", help="another checkout of gather-lint to time on the same tree")
    parser.add_argument("--no-flake8", action="store_true", help="skip the flake8 row (the slowest)")
    parser.add_argument("--repeat", type=int, default=1, help="cold runs of each checkout (the best is kept)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under callgrind instead of timing (needs valgrind)")
    args = parser.parse_args()
    tree = os.path.abspath(args.tree)
    if not os.path.isdir(tree):
        sys.exit(f"no tree at {tree}: fetch one with ../shared/corpus/fetch.sh corpus")
    if args.instructions:
        sys.exit(instructions(tree, args.baseline))
    files, lines = tree_size(tree)
    work = tempfile.mkdtemp(prefix="gather-lint-bench-")
    lint = [sys.executable, "-m", "gather_lint", "-q", "--isolated"]
    some_file = next(os.path.join(d, n) for d, _, ns in os.walk(tree) for n in ns if n.endswith(".py"))
    rows = []
    try:
        cold = lint + ["--no-cache", tree]
        if args.baseline:
            base_root = os.path.abspath(args.baseline)
            pairs = [(measure(cold, work), measure(cold, work, base_root)) for _ in range(args.repeat)]
            rows.append(("gather-lint cold (--no-cache)", min((p[0] for p in pairs), key=lambda r: r["wall"])))
            rows.append(("baseline checkout cold (--no-cache)", min((p[1] for p in pairs), key=lambda r: r["wall"])))
            cpu_ratio = min(p[0]["cpu"] for p in pairs) / min(p[1]["cpu"] for p in pairs)
        else:
            rows.append(("gather-lint cold (--no-cache)", min((measure(cold, work) for _ in range(args.repeat)),
                                                              key=lambda r: r["wall"])))
        measure(lint + [tree], work)  # fill the cache
        rows.append(("gather-lint warm (cache, no change)", measure(lint + [tree], work)))
        os.utime(some_file)
        rows.append(("gather-lint, one file touched", measure(lint + [tree], work)))
        rows.append(("gather-lint cold, --jobs 1", measure(lint + ["--no-cache", "--jobs", "1", tree], work)))
        rows.append(("gather-lint start-up (one empty file)", measure(lint + ["--no-cache", os.devnull], work)))
        if not args.no_flake8 and (shutil.which("flake8") or _has_module("flake8")):
            rows.append(("flake8 --select=F (pyflakes only)", measure([sys.executable, "-m", "flake8", "--select=F", tree], work)))
        if _has_module("torchfix"):
            rows.append(("torchfix", measure([sys.executable, "-m", "torchfix", tree], work)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    base = next((r["wall"] for name, r in rows if name.startswith("flake8")), None)
    if args.baseline:
        this, other = rows[0][1]["wall"], rows[1][1]["wall"]
        print(f"cold time vs the baseline checkout: {this / other:.2f}x wall, {cpu_ratio:.2f}x CPU")
    print(f"tree: {tree} ({files} files, {lines} lines), {os.cpu_count()} cores")
    print(f"{'run':40} {'wall s':>8} {'CPU s':>8} {'files/s':>9} {'lines/s':>10} {'peak MB':>8} {'vs flake8':>10}")
    for name, r in rows:
        ratio = f"{r['wall'] / base:.2f}x" if base else "-"
        print(f"{name:40} {r['wall']:>8.2f} {r['cpu']:>8.2f} {files / r['wall']:>9.0f} {lines / r['wall']:>10.0f} "
              f"{r['rss_mb']:>8.0f} {ratio:>10}")


def instructions(tree, baseline) -> int:
    """Print the instructions of one cold single-job run of each checkout on `tree`, and their ratio."""
    if callgrind.valgrind() is None:
        print("lint_speed: valgrind is not installed; time the runs without --instructions", file=sys.stderr)
        return 2
    files, lines = tree_size(tree)
    checkouts = [("gather-lint", ROOT)] + ([("baseline checkout", os.path.abspath(baseline))] if baseline else [])
    command = [sys.executable, "-m", "gather_lint", "-q", "--isolated", "--no-cache", "--jobs", "1", tree]
    print(f"tree: {tree} ({files} files, {lines} lines); counting under callgrind, this takes minutes", flush=True)
    counts = {}
    with tempfile.TemporaryDirectory(prefix="gather-lint-bench-") as work:
        for name, root in checkouts:
            counts[name] = callgrind.count(command, Path(work) / f"{len(counts)}.out",
                                           env=checkout_env(root), cwd=work)
            if counts[name] is None:
                print(f"lint_speed: the callgrind run of {name} failed", file=sys.stderr)
                return 1
    print(f"{'run (cold, --jobs 1)':40} {'instructions':>16} {'per line':>9}")
    for name, total in counts.items():
        print(f"{name:40} {total:>16,} {total / max(lines, 1):>9,.0f}")
    if baseline:
        print(f"instructions vs the baseline checkout: {counts['gather-lint'] / counts['baseline checkout']:.3f}x")
    return 0


def _has_module(name):
    import importlib.util

    return importlib.util.find_spec(name) is not None


if __name__ == "__main__":
    main()
