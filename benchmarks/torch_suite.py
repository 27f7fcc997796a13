"""PyTorch's own tests for the family, run without and with the runtime's raise mode.

    python benchmarks/torch_suite.py FOLDER [-k EXPR] [--jobs N]

FOLDER holds PyTorch's test files (e.g. test_scatter_gather_ops.py, test_indexing.py from the torch
release in use; they are PyTorch's, not ours, so they are not kept here). They need PyTorch's test
helpers, which import `expecttest`. Each file runs twice in pytest: plainly, and with
`--gather-lint-runtime` (raise mode). Prints the two pass counts per file and every test whose
outcome differs. The default -k leaves out the multi-gigabyte `large` tests.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def outcomes(test_file: Path, checked: bool, keyword: str, extra_path: str):
    """{test id: 'passed' | 'failed' | 'skipped'} of one pytest run."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.xml"
        args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                f"--junitxml={report}", "-k", keyword, str(test_file)]
        if checked:
            args.insert(4, "--gather-lint-runtime")
        env = dict(os.environ)
        env.pop("GATHER_LINT_RUNTIME", None)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), extra_path, env.get("PYTHONPATH", "")) if p)
        subprocess.run(args, cwd=test_file.parent, env=env, capture_output=True, text=True)
        if not report.exists():
            raise SystemExit(f"{test_file.name}: pytest wrote no report (does it import? is expecttest installed?)")
        result = {}
        for case in ET.parse(report).iter("testcase"):
            name = f"{case.get('classname')}::{case.get('name')}"
            kinds = {child.tag for child in case}
            if kinds & {"failure", "error"}:
                result[name] = ("failed", next(iter(c for c in case if c.tag in ("failure", "error"))).get("message", ""))
            elif "skipped" in kinds:
                result[name] = ("skipped", "")
            else:
                result[name] = ("passed", "")
        return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="folder with PyTorch's test files")
    parser.add_argument("-k", default="not large", help="pytest -k expression (default: 'not large')")
    parser.add_argument("--extra-path", default="", help="added to PYTHONPATH (e.g. where expecttest is)")
    opts = parser.parse_args(argv)
    files = sorted(opts.folder.glob("test_*.py"))
    if not files:
        raise SystemExit(f"{opts.folder}: no test_*.py files")
    print(f"{'file':34} {'tests':>6} {'pass (plain)':>13} {'pass (raise mode)':>18}")
    total = [0, 0, 0]
    differing = []
    for test_file in files:
        plain = outcomes(test_file, False, opts.k, opts.extra_path)
        checked = outcomes(test_file, True, opts.k, opts.extra_path)
        passed = [sum(1 for o, _ in run.values() if o == "passed") for run in (plain, checked)]
        print(f"{test_file.name:34} {len(plain):6} {passed[0]:13} {passed[1]:18}")
        total = [total[0] + len(plain), total[1] + passed[0], total[2] + passed[1]]
        for name in sorted(set(plain) | set(checked)):
            a, b = plain.get(name, ("missing", "")), checked.get(name, ("missing", ""))
            if a[0] != b[0]:
                differing.append(f"  {name}: {a[0]} plain, {b[0]} in raise mode {b[1][:200]!r}")
    print(f"{'total':34} {total[0]:6} {total[1]:13} {total[2]:18}")
    if differing:
        print(f"\n{len(differing)} tests differ:")
        print("\n".join(differing))
    return 0 if total[1] == total[2] and not differing else 1


if __name__ == "__main__":
    sys.exit(main())
