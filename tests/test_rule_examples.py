"""Every rule's embedded examples: the linter flags the bad one and passes the good one, and
torch agrees: the bad one raises or differs from the plain-loop reference, the good one matches."""
import textwrap

import pytest

from gather_lint.rules import ALL_RULES, is_static

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
    except (RuntimeError, IndexError) as exc:
        rule = next(r for r in ALL_RULES if r.CODE == code)
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
    from gather_lint.runtime import GatherLintError, checking

    torch.manual_seed(i)
    with checking():
        with pytest.raises(GatherLintError):
            run(example.bad)
        torch.manual_seed(i)
        scope = run(example.good)
    assert same(scope["out"], scope["expected"])
