"""Every real-bug case runs in torch as its meta.toml says: bug.py raises the stated error (or runs,
for a silent bug), fixed.py and the clean files print `ok` after asserting against a loop reference."""
import os

import pytest

from .bug_sets import case_dirs, clean_files, present_sets, run_script

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

CASES = [d for path in present_sets().values() for d in case_dirs(path)]
CLEAN = [f for path in present_sets().values() for f in clean_files(path)]
KEYS = {"source", "source_kind", "bug_class", "line", "shape_info", "runtime_bug", "runtime_fixed", "summary"}
CLASSES = {"wrong_dim", "missing_expand", "rank_mismatch", "missing_squeeze_broadcast", "shift_misalignment",
           "index_dtype", "out_of_range", "scatter_overwrite", "scatter_src_smaller", "other"}
SHAPE_KINDS = {"comments", "jaxtyping", "docstring", "constructors", "none"}


def _id(path):
    return os.sep.join(path.split(os.sep)[-3:])


def meta_of(case_dir):
    with open(os.path.join(case_dir, "meta.toml"), "rb") as handle:
        return tomllib.load(handle)


@pytest.mark.parametrize("case_dir", CASES, ids=[_id(d) for d in CASES])
def test_meta_is_complete(case_dir):
    meta = meta_of(case_dir)
    assert KEYS <= set(meta), KEYS - set(meta)
    assert meta["bug_class"] in CLASSES
    assert meta["shape_info"] in SHAPE_KINDS
    assert meta["source"].count("https://") >= 1, "cite the public report"
    with open(os.path.join(case_dir, "bug.py"), encoding="utf-8") as handle:
        length = len(handle.read().splitlines())
    for line in [meta["line"], *meta.get("other_lines", ()), meta.get("cause_line", 1)]:
        assert 1 <= line <= length


@pytest.mark.parametrize("case_dir", CASES, ids=[_id(d) for d in CASES])
def test_bug_program_behaves_as_meta_says(case_dir, torch):
    expected = meta_of(case_dir)["runtime_bug"]
    exc, _ = run_script(os.path.join(case_dir, "bug.py"))
    if expected.startswith("silent"):
        assert exc is None, f"meta says silent, but it raised {exc!r}"
        return
    kind, _, first_line = expected.partition(": ")
    assert exc is not None, f"meta says it raises {kind}, but it ran"
    assert kind in {c.__name__ for c in type(exc).__mro__}, f"raised {type(exc).__name__}, meta says {kind}"
    assert first_line.strip() in str(exc), f"message {str(exc)!r} lacks {first_line!r}"


@pytest.mark.parametrize("path", [os.path.join(d, "fixed.py") for d in CASES] + CLEAN,
                         ids=[_id(os.path.join(d, "fixed.py")) for d in CASES] + [_id(f) for f in CLEAN])
def test_correct_program_prints_ok(path, torch):
    exc, out = run_script(path)
    assert exc is None, f"raised {exc!r}"
    last = (out.strip().splitlines() or [""])[-1]
    assert last == "ok" or last.startswith("ok "), f"last line printed: {last!r}"
