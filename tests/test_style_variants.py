"""Style variants of detected cases: the same mistake written the way other projects write it.

Each program under tests/style_variants/ marks its faulty line with `# expect: GLxxx`. Torch is the
oracle: every program runs and its driver asserts the wrong behaviour (or the error). The linter must
report the expected code on the marked line; the fixed forms under fixed/ must be silent.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gather_lint.api import lint_text

VARIANTS_DIR = Path(__file__).parent / "style_variants"
VARIANTS = sorted(VARIANTS_DIR.glob("*.py"))
FIXED = sorted((VARIANTS_DIR / "fixed").glob("*.py"))
EXPECT = re.compile(r"#\s*expect:\s*(GL\d{3})")


def _expected(path):
    for lineno, text in enumerate(path.read_text().splitlines(), start=1):
        match = EXPECT.search(text)
        if match:
            return lineno, match.group(1)
    raise AssertionError(f"{path.name} has no `# expect:` marker")


def _run_in_torch(path):
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_variant_bug_is_real_in_torch(path):
    _run_in_torch(path)


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_variant_is_reported_on_marked_line(path):
    line, code = _expected(path)
    findings = lint_text(path.read_text(), str(path)).findings
    assert (line, code) in {(f.line, f.code) for f in findings}, findings


@pytest.mark.parametrize("path", FIXED, ids=lambda p: p.stem)
def test_fixed_variant_runs_and_is_silent(path):
    _run_in_torch(path)
    assert lint_text(path.read_text(), str(path)).findings == []
