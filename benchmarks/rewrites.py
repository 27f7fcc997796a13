"""Does the form of code decide a finding? Rewrite every detected real-bug case in ways that keep what it
does, and count the (case, rewrite) pairs that keep their finding.

    python benchmarks/rewrites.py                      # both bug sets, every rewrite of rewrite_forms.py
    python benchmarks/rewrites.py benchmarks/bugs --kinds "@staticmethod" --verify all

A case is detected when the linter reports a finding on its faulty line (meta.toml's `line`, `other_lines`
or `cause_line`); a rewrite keeps it when the rewritten program has a finding of the same code on those
lines' new numbers. A rewrite of fixed.py or a clean file gains a finding when it has more findings than
the file as written. Each pair counted as lost or gained is run in torch (bug.py and fixed.py rewritten
alike): a rewrite that does not run as the original did (another exception, fixed.py no longer printing
`ok`) is a fault of the rewrite, counted as `invalid`, not as a loss. `--verify all` runs every pair.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for path in (ROOT, HERE):
    if path not in sys.path:
        sys.path.insert(0, path)

from gather_lint.static.analyzer import lint_source  # noqa: E402
from rewrite_forms import REWRITES  # noqa: E402

DEFAULT_SETS = (os.path.join(os.path.dirname(ROOT), "shared", "bugs"), os.path.join(ROOT, "benchmarks", "bugs"))
_EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*): ", re.M)


@dataclass
class Pair:
    case: str
    kind: str
    outcome: str  # kept, lost, invalid, n/a (the rewrite does not apply), gained, clean
    detail: str = ""


@dataclass
class Report:
    pairs: List[Pair] = field(default_factory=list)
    detected: int = 0
    cases: int = 0


def findings(text: str, path: str):
    return lint_source(text, path).findings


def codes_at(found, lines: Set[int]) -> Set[str]:
    return {f.code for f in found if f.line in lines}


def case_lines(meta: dict) -> Set[int]:
    lines = {meta["line"], *meta.get("other_lines", ())}
    if "cause_line" in meta:
        lines.add(meta["cause_line"])
    return lines


def run_program(text: str, home: str, name: str, timeout: float = 120.0) -> str:
    """What running `text` as `home/name` does: `ran`, `ok` (printed ok), the exception's type, or `timeout`.
    The program runs in a copy of its folder, so that the files it reads beside it are there."""
    with tempfile.TemporaryDirectory() as scratch:
        for entry in os.listdir(home):
            if os.path.isfile(os.path.join(home, entry)) and entry.endswith((".py", ".json", ".txt", ".toml")):
                shutil.copy(os.path.join(home, entry), scratch)
        with open(os.path.join(scratch, name), "w", encoding="utf-8") as handle:
            handle.write(text)
        env = dict(os.environ, PYTHONPATH=ROOT, GATHER_LINT_RUNTIME="off")
        try:
            done = subprocess.run([sys.executable, name], cwd=scratch, env=env, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout"
    if done.returncode == 0:
        return "ok" if re.search(r"^ok$", done.stdout, re.M) else "ran"
    types = _EXCEPTION.findall(done.stderr)
    return types[-1] if types else f"exit {done.returncode}"


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def score_case(job) -> Tuple[bool, List[Pair]]:
    """(detected, pairs) for one case folder: every rewrite of bug.py and fixed.py."""
    case_dir, kinds, verify = job
    name = os.path.basename(case_dir)
    with open(os.path.join(case_dir, "meta.toml"), "rb") as handle:
        lines = case_lines(tomllib.load(handle))
    bug_path, fixed_path = os.path.join(case_dir, "bug.py"), os.path.join(case_dir, "fixed.py")
    bug = _read(bug_path)
    original = codes_at(findings(bug, bug_path), lines)
    pairs: List[Pair] = []
    fixed = _read(fixed_path) if os.path.exists(fixed_path) else None
    fixed_count = len(findings(fixed, fixed_path)) if fixed is not None else 0
    runs: Dict[str, str] = {}

    def same_behaviour(kind_bug: Optional[str], kind_fixed: Optional[str]) -> str:
        """'' when the rewrites run as the originals do, else what differs."""
        if "bug" not in runs:
            runs["bug"] = run_program(bug, case_dir, "bug.py")
            runs["fixed"] = run_program(fixed, case_dir, "fixed.py") if fixed is not None else "none"
        if kind_bug is not None:
            now = run_program(kind_bug, case_dir, "bug.py")
            if now != runs["bug"]:
                return f"bug.py: {runs['bug']} -> {now}"
        if kind_fixed is not None:
            now = run_program(kind_fixed, case_dir, "fixed.py")
            if now != runs["fixed"]:
                return f"fixed.py: {runs['fixed']} -> {now}"
        return ""

    for kind in kinds:
        rewrite = REWRITES[kind]
        try:
            new_bug = rewrite(bug, lines) if original else None
        except Exception:  # a rewrite that cannot read this program does not apply to it
            new_bug = None
        new_fixed = None
        if fixed is not None:
            try:
                new_fixed = rewrite(fixed, lines)
            except Exception:
                new_fixed = None
        if original and new_bug is not None:
            kept = codes_at(findings(new_bug.text, bug_path), set(new_bug.lines.values())) & original
            outcome = "kept" if kept else "lost"
            detail = ""
            if outcome == "lost" or verify == "all":
                detail = same_behaviour(new_bug.text, new_fixed.text if new_fixed else None)
                if detail:
                    outcome = "invalid"
            pairs.append(Pair(name, kind, outcome, detail))
        elif original:
            pairs.append(Pair(name, kind, "n/a"))
        if new_fixed is not None:
            gained = len(findings(new_fixed.text, fixed_path)) > fixed_count
            if gained and not same_behaviour(None, new_fixed.text):
                pairs.append(Pair(name + "/fixed.py", kind, "gained"))
            else:
                pairs.append(Pair(name + "/fixed.py", kind, "clean"))
    return bool(original), pairs


def score_clean(job) -> List[Pair]:
    path, kinds = job
    text = _read(path)
    before = len(findings(text, path))
    home, name = os.path.dirname(path), os.path.basename(path)
    original: List[str] = []  # how the file as written runs: run once, when a rewrite first gains a finding
    pairs = []
    for kind in kinds:
        try:
            new = REWRITES[kind](text, set())
        except Exception:
            new = None
        if new is None:
            continue
        gained = len(findings(new.text, path)) > before
        if gained and not original:
            original.append(run_program(text, home, name))
        if gained and run_program(new.text, home, name) == original[0]:
            pairs.append(Pair(os.path.basename(path), kind, "gained"))
        else:
            pairs.append(Pair(os.path.basename(path), kind, "clean"))
    return pairs


def score(sets: List[str], kinds: List[str], verify: str, jobs: int, only: Optional[str]) -> Report:
    case_jobs, clean_jobs = [], []
    for set_dir in sets:
        cases = os.path.join(set_dir, "cases")
        for name in sorted(os.listdir(cases)) if os.path.isdir(cases) else ():
            if os.path.isfile(os.path.join(cases, name, "meta.toml")) and (only is None or re.search(only, name)):
                case_jobs.append((os.path.join(cases, name), kinds, verify))
        clean = os.path.join(set_dir, "clean")
        for name in sorted(os.listdir(clean)) if os.path.isdir(clean) and only is None else ():
            if name.endswith(".py"):
                clean_jobs.append((os.path.join(clean, name), kinds))
    report = Report(cases=len(case_jobs))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for detected, pairs in pool.map(score_case, case_jobs):
            report.detected += detected
            report.pairs += pairs
        for pairs in pool.map(score_clean, clean_jobs):
            report.pairs += pairs
    return report


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.0f}%" if whole else "-"


def print_table(report: Report, kinds: List[str], show_losses: bool) -> None:
    by_kind: Dict[str, Dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for pair in report.pairs:
        by_kind[pair.kind][pair.outcome] += 1
    print(f"{report.detected} of {report.cases} cases detected as written; their rewrites:")
    print(f"{'rewrite':28} {'pairs':>6} {'kept':>6} {'lost':>6} {'invalid':>8} {'keep':>6} {'n/a':>5} "
          f"{'fixed/clean':>12} {'gained':>7}")
    total = defaultdict(int)
    for kind in kinds:
        counts = by_kind[kind]
        pairs = counts["kept"] + counts["lost"]
        for key in ("kept", "lost", "invalid", "n/a", "clean", "gained"):
            total[key] += counts[key]
        print(f"{kind:28} {pairs:>6} {counts['kept']:>6} {counts['lost']:>6} {counts['invalid']:>8} "
              f"{_pct(counts['kept'], pairs):>6} {counts['n/a']:>5} {counts['clean'] + counts['gained']:>12} "
              f"{counts['gained']:>7}")
    pairs = total["kept"] + total["lost"]
    print(f"{'all':28} {pairs:>6} {total['kept']:>6} {total['lost']:>6} {total['invalid']:>8} "
          f"{_pct(total['kept'], pairs):>6} {total['n/a']:>5} {total['clean'] + total['gained']:>12} {total['gained']:>7}")
    if show_losses:
        for pair in report.pairs:
            if pair.outcome in ("lost", "gained", "invalid"):
                print(f"  {pair.outcome:8} {pair.kind:28} {pair.case} {pair.detail}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", help="folders holding cases/ and clean/ (default: both sets)")
    parser.add_argument("--kinds", nargs="+", choices=sorted(REWRITES), default=list(REWRITES),
                        metavar="KIND", help="rewrites to apply (default: all): " + "; ".join(REWRITES))
    parser.add_argument("--verify", choices=("losses", "all"), default="losses",
                        help="run in torch the pairs that lose or gain a finding (default), or every pair")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--cases", help="only cases whose folder name matches this regex")
    parser.add_argument("--list", action="store_true", help="list each lost, gained and invalid pair")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = score(args.sets or [s for s in DEFAULT_SETS if os.path.isdir(s)], args.kinds, args.verify,
                   args.jobs, args.cases)
    if args.json:
        print(json.dumps([pair.__dict__ for pair in report.pairs], indent=1))
    else:
        print_table(report, args.kinds, args.list)
    return 0


if __name__ == "__main__":
    sys.exit(main())
