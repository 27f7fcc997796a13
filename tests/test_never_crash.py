"""The analyzer never raises: generated programs, random bytes and truncated real files each give
findings or one clean GL000 diagnostic."""
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gather_lint.api import lint_text
from gather_lint.files import UnreadableFile, read_source

EXAMPLES = int(os.environ.get("GATHER_LINT_FUZZ_EXAMPLES", "60"))
COMMON = dict(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
              derandomize="GATHER_LINT_FUZZ_EXAMPLES" not in os.environ)
ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for p in (ROOT / "gather_lint").rglob("*.py")) + sorted((ROOT / "examples").rglob("*.py"))


def lint_ok(text: str) -> None:
    result = lint_text(text, "fuzz.py")
    for f in result.findings:
        assert f.code.startswith("GL") and f.line >= 1 and f.column >= 1


def test_hypothesmith_programs():
    hypothesmith = pytest.importorskip("hypothesmith")

    @settings(**COMMON)
    @given(hypothesmith.from_grammar())
    def run(source):
        lint_ok(source + "\nx.gather(0, idx)\n")

    run()


@settings(**COMMON)
@given(data=st.binary(max_size=400))
def test_random_bytes(data, tmp_path_factory):
    path = tmp_path_factory.mktemp("b") / "f.py"
    path.write_bytes(b"gather scatter_\n" + data)
    try:
        text = read_source(str(path))
    except UnreadableFile:
        return
    lint_ok(text)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_truncated_real_files(source):
    text = source.read_text() + "\ny = x.gather(1, idx)\n"
    rng = random.Random(str(source))
    for cut in sorted(rng.sample(range(len(text)), min(25, len(text)))):
        lint_ok(text[:cut])
        lint_ok(text[cut:])
