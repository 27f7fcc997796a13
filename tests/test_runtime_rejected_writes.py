"""Runtime GL003 for `x[..., positions, ...] = v` that torch rejects: the positions select another shape
than v has. Looked at only after torch raised, so valid writes pay nothing; raise mode raises torch's
type with torch's message after the explanation, warn mode warns and torch's error follows."""
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, GatherLintWarning, checked  # noqa: E402
from .checked_runs import plain_and_checked  # noqa: E402
from .snippets import run_snippet  # noqa: E402

BUGGY = {
    "features for two rows spliced into the first": ("""
import torch
embeddings = torch.zeros(2, 6, 4)
features = torch.randn(6, 4)
positions = torch.tensor([1, 2, 4])
embeddings[0, positions] = features
""", ["[3, 4]", "(3 positions)", "[6, 4]"]),
    "targets for the rows a mask kept, grown to a square": ("""
import torch
rewards = torch.randn(5, 1)
keep = torch.tensor([True, True, False, True, True])
best_next = torch.randn(4)
targets = rewards.clone()
targets[keep] = rewards[keep] + 0.9 * best_next
""", ["[4, 4]", "square"]),
}

VALID = {
    "one row per position": """
import torch
x = torch.zeros(2, 6, 4)
x[0, torch.tensor([1, 2, 4])] = torch.randn(3, 4)
""",
    "a broadcast value": """
import torch
x = torch.zeros(6, 4)
x[torch.tensor([0, 5])] = torch.ones(4)
""",
}


@pytest.mark.parametrize("name", list(BUGGY))
def test_a_rejected_write_is_gl003_with_torchs_error(name):
    program, expected = BUGGY[name]
    with pytest.raises(RuntimeError, match="shape mismatch") as plain:
        run_snippet(program)
    with checked(), pytest.raises(GatherLintError, match="GL003") as caught:
        run_snippet(program)
    assert isinstance(caught.value, RuntimeError) and caught.value.__context__ is None
    assert all(text in str(caught.value) for text in expected), str(caught.value)
    assert str(plain.value).splitlines()[0] in str(caught.value)


def test_warn_mode_warns_and_torchs_error_follows():
    program, _ = BUGGY["features for two rows spliced into the first"]
    with warnings.catch_warnings(record=True) as found, checked(action="warn"):
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="shape mismatch") as raised:
            run_snippet(program)
    assert not isinstance(raised.value, GatherLintError)
    assert [w for w in found if issubclass(w.category, GatherLintWarning) and "GL003" in str(w.message)]


@pytest.mark.parametrize("name", list(VALID))
def test_valid_writes_run_as_in_torch(name):
    plain, scope = plain_and_checked(VALID[name])
    assert torch.equal(scope["x"], plain["x"])
