"""GL029: a reduction over a dim other than the first, without keepdim, met elementwise by a tensor of the shape it
reduced (static/dropped_dims.py). Broadcasting lines the reduced values up with the wrong dim. Each claim runs in
torch: sizes that differ raise, equal sizes give a wrong result silently, and every form left alone is right."""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

DOCSTRING = '''
import torch

def renormalise(probs, keep):
    """Args:
        probs: tensor of shape (batch_size, vocab_size).
        keep: bool tensor of shape (batch_size, vocab_size).
    """
    kept = torch.where(keep, probs, torch.zeros_like(probs))
    filtered = torch.zeros_like(probs).scatter(1, torch.arange(probs.shape[1]).expand_as(probs), kept)
    denom = torch.sum(filtered, dim=1).clamp_min(1e-12)
    return filtered / denom

def run(batch=3, vocab=16):
    torch.manual_seed(0)
    probs = torch.softmax(torch.randn(batch, vocab), dim=1)
    out = renormalise(probs, probs > 0.05)
    kept = torch.where(probs > 0.05, probs, torch.zeros_like(probs))
    return out, torch.stack([kept[b] / kept[b].sum() for b in range(batch)])
'''

COMMENT = '''
import torch

def run():
    torch.manual_seed(0)
    scores = torch.randn(3, 16)  # [B, V]
    total = scores.exp().sum(dim=1)
    total = total + 1e-8
    out = scores.exp() / total
    labels = torch.tensor([0, 5, 15])
    return out.gather(1, labels[:, None]), torch.softmax(scores, dim=1).gather(1, labels[:, None])
'''

JAXTYPING = '''
import torch
from jaxtyping import Float
from torch import Tensor

def centered_frames(x: Float[Tensor, "batch time feat"], frames) -> Float[Tensor, "batch frames feat"]:
    centered = x - torch.mean(x, -1)
    return centered.index_select(1, frames)

def run():
    x = torch.randn(2, 5, 7)
    frames = torch.tensor([0, 2])
    return centered_frames(x, frames), (x - x.mean(-1, keepdim=True)).index_select(1, frames)
'''

STABLE_SOFTMAX = '''
import torch

def run():
    logits = torch.randn(4, 10)
    labels = torch.tensor([1, 0, 9, 3])
    shifted = logits - logits.max(dim=-1).values
    log_probs = shifted - shifted.exp().sum(-1, keepdim=True).log()
    return log_probs.gather(1, labels[:, None]), torch.log_softmax(logits, -1).gather(1, labels[:, None])
'''

IN_PLACE = '''
import torch

def row_norms(x):
    return x.norm(dim=1)

def run():
    x = torch.randn(6, 4)
    expected = x / x.norm(dim=1, keepdim=True)
    x /= row_norms(x)
    keep = torch.tensor([0, 3])
    return x.index_select(0, keep), expected.index_select(0, keep)
'''


@pytest.mark.parametrize("code, line", [
    (DOCSTRING, 12), (COMMENT, 9), (JAXTYPING, 7), (STABLE_SOFTMAX, 7), (IN_PLACE, 10),
], ids=["docstring-helper", "comment-temporary", "jaxtyping", "max-values", "in-place-through-a-helper"])
def test_sizes_that_differ_raise(code, line):
    if "jaxtyping" in code:
        pytest.importorskip("jaxtyping")
    found = lint(code)
    assert [(f.code, f.line) for f in found] == [("GL029", line)]
    assert "keepdim=True" in found[0].message
    with pytest.raises(RuntimeError, match="must match the size"):
        run(code)


def test_equal_sizes_pair_the_wrong_entries_silently():
    """The function's own shapes name two sizes: called with a square batch, torch runs and the result is wrong."""
    found = lint(DOCSTRING)
    assert [f.code for f in found] == ["GL029"] and "silently" in found[0].message
    scope: dict = {}
    exec(compile(DOCSTRING, "snippet.py", "exec"), scope)
    out, expected = scope["run"](batch=4, vocab=4)
    assert out.shape == expected.shape and not torch.allclose(out, expected)


@pytest.mark.parametrize("fixed", [
    "torch.sum(kept, dim=1, keepdim=True).clamp_min(1e-12)",
    "torch.sum(filtered, dim=1).clamp_min(1e-12).unsqueeze(1)",
    "torch.sum(filtered, dim=1).clamp_min(1e-12)[:, None]",
    "torch.sum(kept, dim=-1, keepdim=True).clamp_min(1e-12)",
])
def test_a_kept_dim_is_left_alone_and_right(fixed):
    code = DOCSTRING.replace("torch.sum(filtered, dim=1).clamp_min(1e-12)", fixed)
    assert lint(code) == []
    out, expected = run(code)
    assert torch.allclose(out, expected)


@pytest.mark.parametrize("code", [
    # dim 0: the column sums line up with the columns
    "x = torch.rand(3, 16)\nout = x / x.sum(0)\nexpected = torch.stack([x[:, j] / x[:, j].sum() for j in range(16)], 1)",
    # a square tensor of one named size (a symmetric kernel): its row sums are its column sums
    "def norm(a):\n    # a: [N, N]\n    return a / a.sum(1)\nm = torch.rand(4, 4)\nx = m + m.T\nout = norm(x)\n"
    "expected = x / x.sum(0, keepdim=True)",
    # a size 1 broadcasts either way
    "x = torch.rand(1, 16)\nout = x / x.sum(1)\nexpected = x / x.sum()",
    # every dim reduced: a number
    "x = torch.rand(3, 16)\nout = x / x.sum()\nexpected = x / x.sum().item()",
    # reduced, then met by a tensor of another shape: [B] against [T, B]
    "x = torch.rand(3, 16)\nw = torch.rand(5, 3)\nout = w * x.sum(1)\nexpected = w * x.sum(1)[None, :]",
])
def test_broadcasts_that_line_up_are_left_alone(code):
    program = "import torch\n" + code + "\npicked = torch.gather(out, 0, torch.zeros(1, out.shape[-1], dtype=torch.long))\n"
    assert lint(program) == []
    scope: dict = {}
    exec(compile(program, "snippet.py", "exec"), scope)
    assert torch.allclose(scope["out"], scope["expected"])



def test_the_same_harness_reports_the_dropped_dim():
    """The forms above are silent because they line up, not because module-level code goes unread."""
    program = "import torch\nx = torch.rand(3, 16)\nout = x / x.sum(1)\n" \
              "picked = torch.gather(out, 0, torch.zeros(1, out.shape[-1], dtype=torch.long))\n"
    assert [(f.code, f.line) for f in lint(program)] == [("GL029", 3)]
    with pytest.raises(RuntimeError, match="must match the size"):
        exec(compile(program, "snippet.py", "exec"), {})


# An integer subscript of a non-first dim drops it as a reduction does: the k-th largest logit of each row,
# `topk(logits, k)[0][:, -1]`, met by the [B, V] logits it was taken from.
KTH_LARGEST = """
import torch


def top_k_logits(logits, k):
    # logits: [B, V]
    values = torch.topk(logits, k)[0]
    min_values = KTH
    return torch.where(logits < min_values, torch.full_like(logits, -1e10), logits)


def run():
    torch.manual_seed(0)
    return top_k_logits(torch.randn(4, 50), 5)


if __name__ == "__main__":
    run()
"""


def test_a_picked_column_met_by_the_rows_it_came_from():
    program = KTH_LARGEST.replace("KTH", "values[:, -1]")
    found = [f for f in lint(program) if f.code == "GL029"]
    assert found and "`-1:`" in found[0].help
    with pytest.raises(RuntimeError, match="must match the size of tensor b"):
        run(program)  # [4, 50] against [4]: the 4 kth values meet the 50 logits of a row


@pytest.mark.parametrize("kth", ["values[:, -1:]", "values[:, -1].unsqueeze(1)", "values[:, [-1]]"])
def test_a_picked_column_kept_as_a_column_is_silent(kth):
    program = KTH_LARGEST.replace("KTH", kth)
    assert [f for f in lint(program) if f.code == "GL029"] == []
    out = run(program)
    assert ((out > -1e9).sum(dim=1) == 5).all()  # each row keeps its own top 5
