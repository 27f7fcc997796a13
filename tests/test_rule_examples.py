"""Every rule's embedded examples: the linter flags the bad one and passes the good one, and
torch agrees: the bad one raises or differs from the plain-loop reference, the good one matches."""
import textwrap

import pytest

from gather_lint.rules import ALL_RULES, is_runtime, is_static

from .conftest import lint

CASES = [(rule.CODE, i, ex) for rule in ALL_RULES for i, ex in enumerate(rule.EXAMPLES)]
IDS = [f"{code}-{i}" for code, i, _ in CASES]


def run(snippet: str):
    scope = {}
    exec(compile(textwrap.dedent(snippet), "<example>", "exec"), scope)
    return scope


def same(out, expected) -> bool:
    import torch

    return out.shape == expected.shape and torch.allclose(out.float(), expected.float())


def test_every_rule_has_examples_and_metadata():
    for rule in ALL_RULES:
        assert rule.EXAMPLES, rule.CODE
        assert rule.SEVERITY in ("error", "warning")
        assert rule.__doc__ and rule.__doc__.startswith(rule.CODE)


@pytest.mark.parametrize("code,i,example", CASES, ids=IDS)
def test_bad_example_is_flagged(code, i, example):
    if not is_static(next(r for r in ALL_RULES if r.CODE == code)):
        pytest.skip("runtime-only rule: see test_runtime_agrees_with_examples")
    found = [f.code for f in lint(example.bad)]
    assert code in found


@pytest.mark.parametrize("code,i,example", CASES, ids=IDS)
def test_good_example_is_clean(code, i, example):
    assert lint(example.good) == []


@pytest.mark.parametrize("code,i,example", CASES, ids=IDS)
def test_bad_example_misbehaves_in_torch(code, i, example, torch):
    torch.manual_seed(i)
    try:
        scope = run(example.bad)
    except (RuntimeError, IndexError, TypeError) as exc:
        rule = next(r for r in ALL_RULES if r.CODE == code)
        assert not isinstance(exc, TypeError) or code == "GL033", f"{code}'s example is refused by torch: {exc}"
        assert rule.SEVERITY == "error" or code == "GL004", f"{code} is a warning but torch raised: {exc}"
        return
    assert not same(scope["out"], scope["expected"]), "bad example gave the intended result"


@pytest.mark.parametrize("code,i,example", CASES, ids=IDS)
def test_good_example_matches_reference_in_torch(code, i, example, torch):
    torch.manual_seed(i)
    scope = run(example.good)
    assert same(scope["out"], scope["expected"])


@pytest.mark.parametrize("code,i,example", CASES, ids=IDS)
def test_runtime_mode_stops_bad_and_passes_good_examples(code, i, example, torch):
    import warnings

    from gather_lint.runtime import GatherLintError, GatherLintWarning, checking

    if not is_runtime(next(r for r in ALL_RULES if r.CODE == code)):
        pytest.skip("dataflow rule: the runtime mode sees the call, not where its result is used")
    torch.manual_seed(i)
    try:
        run(example.bad)
        torch_raises = None
    except Exception as exc:  # noqa: BLE001
        torch_raises = type(exc)
    torch.manual_seed(i)
    with checking(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if torch_raises is not None:  # raise mode stops exactly what torch stops, with torch's type
            with pytest.raises(GatherLintError, match="GL0") as info:  # GL004 shows at run time as GL011
                run(example.bad)
            assert isinstance(info.value, torch_raises)
        else:  # torch runs it: a warning at the example's line, never a stop
            run(example.bad)
            assert any(issubclass(w.category, GatherLintWarning) and code in str(w.message) for w in caught)
        torch.manual_seed(i)
        scope = run(example.good)
    assert same(scope["out"], scope["expected"])


FIXABLE = [(code, i, ex) for code, i, ex in CASES if next(r for r in ALL_RULES if r.CODE == code).FIX]


@pytest.mark.parametrize("code,i,example", FIXABLE, ids=[f"{c}-{i}" for c, i, _ in FIXABLE])
def test_fix_removes_the_finding_and_matches_the_reference_in_torch(code, i, example, torch):
    from gather_lint import fixes

    source = textwrap.dedent(example.bad)
    found = [f for f in lint(source) if f.code == code]
    if found and found[0].fix is None:
        pytest.skip("no fix offered here: the dim alone would not make this call right")
    fixed, done = fixes.apply(source, lint(source), unsafe=True)
    assert [f.code for f in done] == [code]
    assert code not in [f.code for f in lint(fixed)]
    torch.manual_seed(i)
    scope = run(fixed)
    assert same(scope["out"], scope["expected"]), fixed


def test_rule_pages_are_generated_from_the_rules():
    from pathlib import Path

    from gather_lint.rule_docs import render

    pages = Path(__file__).resolve().parent.parent / "rules"
    for rule in ALL_RULES:
        assert (pages / f"{rule.CODE}.md").read_text() == render(rule), f"regenerate rules/{rule.CODE}.md"
    assert sorted(p.stem for p in pages.glob("GL*.md")) == sorted(r.CODE for r in ALL_RULES)


def test_every_rule_with_a_fix_fixes_at_least_one_of_its_examples():
    for rule in ALL_RULES:
        if rule.FIX:
            assert any(f.fix for ex in rule.EXAMPLES for f in lint(ex.bad) if f.code == rule.CODE), rule.CODE
