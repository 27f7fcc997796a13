"""Static recall on real bugs, and false positives on their fixed forms and on clean files.

    python benchmarks/recall.py [--json] [SET_DIR ...]

Default sets: `../shared/bugs` beside the repository (when present) and `benchmarks/bugs`. A set holds
`cases/NNN_name/{bug.py,fixed.py,meta.toml}` and `clean/*.py`. A case is detected when the linter
reports a finding on meta's `line`, one of `other_lines` or `cause_line` in bug.py; any finding on
fixed.py or a clean file is a false positive. Misses name what stopped the analysis at the faulty
line: `no-site` (no family call checked there), `input:<why>` / `index:<why>` (that shape was unknown,
and why), `no-rule` (both shapes known, no rule recognised the mistake).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Dict, List, Optional

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from gather_lint.files import read_source  # noqa: E402
from gather_lint.static.analyzer import lint_source  # noqa: E402

DEFAULT_SETS = (os.path.join(os.path.dirname(ROOT), "shared", "bugs"), os.path.join(ROOT, "benchmarks", "bugs"))
SHAPE_KINDS = ("comments", "jaxtyping", "docstring", "constructors", "none")
_SHORT = {  # analyzer.blind_spot's reasons, one word each
    "parameter without a shape": "parameter",
    "local from an untracked expression": "untracked",
    "attribute (self.x, obj.weight)": "attribute",
    "indexing of an unknown tensor": "subscript",
    "result of a function or module call": "call",
    "other expression": "other",
}


@dataclass
class CaseResult:
    name: str
    bug_class: str
    shape_info: str
    detected: bool
    codes: List[str]
    why_missed: str = ""


@dataclass
class SetResult:
    name: str
    cases: List[CaseResult] = field(default_factory=list)
    false_positives: Dict[str, List[str]] = field(default_factory=dict)  # file -> ["12: GL005", ...]
    clean_files: int = 0

    def recall(self, with_shapes: Optional[bool] = None) -> tuple:
        chosen = [c for c in self.cases
                  if with_shapes is None or (c.shape_info != "none") == with_shapes]
        return sum(c.detected for c in chosen), len(chosen)

    def as_json(self) -> dict:
        hit, total = self.recall()
        hit_s, total_s = self.recall(True)
        return {"set": self.name, "cases": total, "detected": hit, "with_shapes": total_s,
                "detected_with_shapes": hit_s, "false_positive_files": sorted(self.false_positives),
                "detected_cases": sorted(c.name for c in self.cases if c.detected)}


def lint_path(path: str, observe=None):
    return lint_source(read_source(path), path, observe=observe).findings


def score_case(case_dir: str) -> tuple:
    with open(os.path.join(case_dir, "meta.toml"), "rb") as handle:
        meta = tomllib.load(handle)
    lines = {meta["line"], *meta.get("other_lines", ())}
    if "cause_line" in meta:
        lines.add(meta["cause_line"])
    seen: Dict[int, dict] = {}

    def observe(line, site, unknown):
        if line in lines:
            previous = seen.get(line)
            if previous is None or len(unknown) < len(previous):
                seen[line] = unknown  # the best-informed analysis of that call (helpers run more than once)

    findings = lint_path(os.path.join(case_dir, "bug.py"), observe)
    hits = sorted({f.code for f in findings if f.line in lines})
    result = CaseResult(os.path.basename(case_dir), meta["bug_class"], meta["shape_info"], bool(hits), hits)
    if not hits:
        result.why_missed = _why(seen)
    fixed = os.path.join(case_dir, "fixed.py")
    fixed_findings = [f"{f.line}: {f.code}" for f in lint_path(fixed)] if os.path.exists(fixed) else []
    return result, fixed_findings


def _why(seen: Dict[int, dict]) -> str:
    if not seen:
        return "no-site"
    best = min(seen.values(), key=len)
    if not best:
        return "no-rule"
    return ",".join(f"{role}:{_SHORT.get(why, why.replace('result of .', '.').replace('()', ''))}"
                    for role, why in sorted(best.items()))


def score_set(set_dir: str) -> SetResult:
    result = SetResult(_set_name(set_dir))
    cases_dir = os.path.join(set_dir, "cases")
    for name in sorted(os.listdir(cases_dir)) if os.path.isdir(cases_dir) else ():
        case_dir = os.path.join(cases_dir, name)
        if not os.path.isfile(os.path.join(case_dir, "meta.toml")):
            continue
        case, fixed_findings = score_case(case_dir)
        result.cases.append(case)
        if fixed_findings:
            result.false_positives[f"cases/{name}/fixed.py"] = fixed_findings
    clean_dir = os.path.join(set_dir, "clean")
    for name in sorted(os.listdir(clean_dir)) if os.path.isdir(clean_dir) else ():
        if name.endswith(".py"):
            result.clean_files += 1
            found = [f"{f.line}: {f.code}" for f in lint_path(os.path.join(clean_dir, name))]
            if found:
                result.false_positives[f"clean/{name}"] = found
    return result


def _set_name(set_dir: str) -> str:
    parent, base = os.path.split(os.path.abspath(set_dir))
    return f"{os.path.basename(parent)}/{base}"


def _pct(hit: int, total: int) -> str:
    return f"{hit}/{total} ({100 * hit / total:.0f}%)" if total else "-"


def print_table(result: SetResult) -> None:
    print(f"\n## {result.name}: {len(result.cases)} cases, {result.clean_files} clean files")
    by_class: Dict[str, List[CaseResult]] = defaultdict(list)
    for case in result.cases:
        by_class[case.bug_class].append(case)
    print(f"{'bug class':<28}{'detected':>14}")
    for name in sorted(by_class):
        chosen = by_class[name]
        print(f"{name:<28}{_pct(sum(c.detected for c in chosen), len(chosen)):>14}")
    print(f"\n{'shape information':<28}{'detected':>14}")
    for kind in SHAPE_KINDS:
        chosen = [c for c in result.cases if c.shape_info == kind]
        if chosen:
            print(f"{kind:<28}{_pct(sum(c.detected for c in chosen), len(chosen)):>14}")
    print(f"{'with shape information':<28}{_pct(*result.recall(True)):>14}")
    print(f"{'all cases':<28}{_pct(*result.recall()):>14}")
    fixed_count = len(result.cases)
    print(f"\nfalse-positive files: {len(result.false_positives)} of {fixed_count} fixed.py + "
          f"{result.clean_files} clean")
    for path, found in sorted(result.false_positives.items()):
        print(f"  {path}: {', '.join(found)}")
    misses = [c for c in result.cases if not c.detected]
    if misses:
        print(f"\nmisses ({len(misses)}), with what stopped the analysis:")
        for case in misses:
            print(f"  {case.name:<58} {case.shape_info:<13} {case.why_missed}")
        print("  totals: " + ", ".join(f"{k} {v}" for k, v in Counter(
            c.why_missed.split(":")[0].split(",")[0] for c in misses).most_common()))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", help="folders holding cases/ and clean/ (default: both sets)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    sets = args.sets or [s for s in DEFAULT_SETS if os.path.isdir(s)]
    results = [score_set(s) for s in sets]
    if args.json:
        print(json.dumps([r.as_json() for r in results], indent=2))
    else:
        for result in results:
            print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
