"""Runtime explanations of calls torch rejects: F.one_hot, the classification losses, topk, and family writes.

Each bug runs in plain torch first (the oracle: its exception type and message), then checked: raise
mode raises the same exception type (an `except RuntimeError` / `except IndexError` written against
torch still catches it) carrying the rule code, the cause in the user's terms and the fix, followed by
torch's own message, at the snippet's line. The correct form and a valid variant of each run silent,
with the same result as plain torch.
"""
import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, checked  # noqa: E402
from .runtime_checks import silent  # noqa: E402
from .snippets import SNIPPET_FILE, run_snippet  # noqa: E402

SETUP = """
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
"""

# name: (buggy snippet, code, phrases the explanation must hold, the correct form)
CASES = {
    "one_hot class past num_classes": (
        "labels = torch.tensor([[0, 1], [2, 5]])\nout = F.one_hot(labels, 5)\n",
        "GL011", ["span [0, 5]", "num_classes=5", "first bad value 5 at tensor[1, 1]", "num_classes >= 6"],
        "labels = torch.tensor([[0, 1], [2, 5]])\nout = F.one_hot(labels, 6)\n"),
    "one_hot negative padding label": (
        "labels = torch.tensor([0, 2, -100])\nout = F.one_hot(labels, 3)\n",
        "GL011", ["span [-100, 2]", "first negative value -100 at tensor[2]", "clamp(min=0)"],
        "labels = torch.tensor([0, 2, -100])\nout = F.one_hot(labels.clamp(min=0), 3) * (labels >= 0).unsqueeze(-1)\n"),
    "one_hot labels counted from 1": (
        "labels = torch.tensor([1, 2, 3])\nout = F.one_hot(labels, num_classes=3)\n",
        "GL011", ["span [1, 3]", "num_classes=3", "`t - 1`"],
        "labels = torch.tensor([1, 2, 3])\nout = F.one_hot(labels - 1, num_classes=3)\n"),
    "cross_entropy uint8 mask targets on [B, C, H, W] scores": (
        "logits, mask = torch.randn(2, 3, 4, 4), torch.randint(0, 3, (2, 4, 4)).byte()\n"
        "loss = F.cross_entropy(logits, mask)\n",
        "GL008", ["dtype uint8", "int64 only", "`target.long()`"],
        "logits, mask = torch.randn(2, 3, 4, 4), torch.randint(0, 3, (2, 4, 4)).byte()\n"
        "loss = F.cross_entropy(logits, mask.long())\n"),
    "one_hot float classes": (
        "labels = torch.tensor([0., 2., 1.])\nout = F.one_hot(labels, 3)\n",
        "GL008", ["dtype float32", "int64 only", "`.long()`"],
        "labels = torch.tensor([0., 2., 1.])\nout = F.one_hot(labels.long(), 3)\n"),
    "cross_entropy on [B, T, V] scores": (
        "logits, tokens = torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5))\nloss = F.cross_entropy(logits, tokens)\n",
        "GL004", ["dim 1", "[2, 5, 7]", "`input.transpose(1, 2)`", "`input.reshape(-1, 7)` [10, 7]",
                  "`target.reshape(-1)` [10]"],
        "logits, tokens = torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5))\n"
        "loss = F.cross_entropy(logits.transpose(1, 2), tokens)\n"),
    "topk k past the points of a small cloud": (
        "dist = torch.rand(4, 10)\nout = dist.topk(16, dim=1, largest=False).indices\n",
        "GL035", ["k = 16", "dim 1", "[4, 10]", "holds 10", "`min(k, x.size(1))`"],
        "dist = torch.rand(4, 10)\nout = dist.topk(min(16, dist.size(1)), dim=1, largest=False).indices\n"),
    "torch.topk k past the corpus": (
        "scores = torch.rand(3, 6)\nvals, ids = torch.topk(scores, k=8)\n",
        "GL035", ["k = 8", "dim 1", "holds 6"],
        "scores = torch.rand(3, 6)\nvals, ids = torch.topk(scores, k=min(8, scores.size(-1)))\n"),
    "nn.CrossEntropyLoss on [B, H, W, C] scores": (
        "logits, tokens = torch.randn(2, 3, 4, 7), torch.randint(0, 7, (2, 3, 4))\n"
        "loss = nn.CrossEntropyLoss()(logits, tokens)\n",
        "GL004", ["dim 1", "`input.movedim(-1, 1)`"],
        "logits, tokens = torch.randn(2, 3, 4, 7), torch.randint(0, 7, (2, 3, 4))\n"
        "loss = nn.CrossEntropyLoss()(logits.movedim(-1, 1), tokens)\n"),
    "nll_loss target past the classes": (
        "logp, y = torch.randn(4, 3).log_softmax(1), torch.tensor([0, 1, 3, 2])\nloss = F.nll_loss(logp, y)\n",
        "GL011", ["span [0, 3]", "3 classes on dim 1", "first bad value 3 at target[2]"],
        "logp, y = torch.randn(4, 4).log_softmax(1), torch.tensor([0, 1, 3, 2])\nloss = F.nll_loss(logp, y)\n"),
    "cross_entropy padding -1 not ignored": (
        "logits, y = torch.randn(4, 3), torch.tensor([0, 1, -1, 2])\nloss = F.cross_entropy(logits, y)\n",
        "GL011", ["first bad value -1 at target[2]", "`ignore_index=-1`"],
        "logits, y = torch.randn(4, 3), torch.tensor([0, 1, -1, 2])\n"
        "loss = F.cross_entropy(logits, y, ignore_index=-1)\n"),
    "nn.NLLLoss labels counted from 1": (
        "logp, y = torch.randn(4, 3).log_softmax(1), torch.tensor([1, 2, 3, 3])\nloss = nn.NLLLoss()(logp, y)\n",
        "GL011", ["span [1, 3]", "`target - 1`"],
        "logp, y = torch.randn(4, 3).log_softmax(1), torch.tensor([1, 2, 3, 3])\nloss = nn.NLLLoss()(logp, y - 1)\n"),
    "cross_entropy float class ids": (
        "logits, y = torch.randn(4, 3), torch.tensor([0., 1., 2., 2.])\nloss = F.cross_entropy(logits, y)\n",
        "GL008", ["target [4] holds float32", "`target.long()`", "shaped like input, [4, 3]"],
        "logits, y = torch.randn(4, 3), torch.tensor([0., 1., 2., 2.])\nloss = F.cross_entropy(logits, y.long())\n"),
    "cross_entropy target kept a trailing 1": (
        "logits, y = torch.randn(4, 3), torch.tensor([[0], [1], [2], [2]])\nloss = F.cross_entropy(logits, y)\n",
        "GL006", ["target [4, 1] kept a trailing 1", "target [4]", "`target.squeeze(1)`"],
        "logits, y = torch.randn(4, 3), torch.tensor([[0], [1], [2], [2]])\n"
        "loss = F.cross_entropy(logits, y.squeeze(1))\n"),
    "cross_entropy on flattened scores with a [B, T] target": (
        "logits, tokens = torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5))\n"
        "loss = F.cross_entropy(logits.reshape(-1, 7), tokens)\n",
        "GL001", ["input [10, 7] has one row per position", "target [2, 5] still has 2 dims", "`target.reshape(-1)`"],
        "logits, tokens = torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5))\n"
        "loss = F.cross_entropy(logits.reshape(-1, 7), tokens.reshape(-1))\n"),
    "index_add_ source with self's other dim wrong": (
        "x = torch.zeros(5, 3)\nx.index_add_(0, torch.tensor([0, 1]), torch.ones(2, 4))\n",
        "GL003", ["on dim 1 (4 vs 3)",
                  "source must be [2, 3]: the index's 2 entries along dim 0, self's sizes elsewhere"],
        "x = torch.zeros(5, 3)\nx.index_add_(0, torch.tensor([0, 1]), torch.ones(2, 3))\n"),
    "index_copy_ source with a row per index missing": (
        "x = torch.zeros(5, 3)\nx.index_copy_(0, torch.tensor([0, 1, 4]), torch.ones(2, 3))\n",
        "GL003", ["3 indices for source [2, 3]", "source must be [3, 3]"],
        "x = torch.zeros(5, 3)\nx.index_copy_(0, torch.tensor([0, 1, 4]), torch.ones(3, 3))\n"),
    "torch.index_add along dim 1 with a 1-d source": (
        "x = torch.zeros(5, 3)\ny = torch.index_add(x, 1, torch.tensor([0, 2]), torch.ones(2))\n",
        "GL001", ["source [2] is 1-d", "source must be [5, 2]"],
        "x = torch.zeros(5, 3)\ny = torch.index_add(x, 1, torch.tensor([0, 2]), torch.ones(2).expand(5, 2))\n"),
    "index_fill_ with a 1-d value": (
        "x = torch.zeros(5, 3)\nx.index_fill_(0, torch.tensor([0, 1]), torch.tensor([1., 2.]))\n",
        "GL001", ["value [2] is a 1-d tensor", "index_copy_"],
        "x = torch.zeros(5, 3)\n"
        "x.index_copy_(0, torch.tensor([0, 1]), torch.tensor([1., 2.]).unsqueeze(1).expand(2, 3))\n"),
    "scatter_add_ of self into itself": (
        "x = torch.randn(4, 4)\nidx = torch.zeros(4, 4, dtype=torch.long)\nx.scatter_add_(1, idx, x)\n",
        "GL013", ["src is self itself", "`src.clone()`"],
        "x = torch.randn(4, 4)\nidx = torch.zeros(4, 4, dtype=torch.long)\nx.scatter_add_(1, idx, x.clone())\n"),
    "index_add_ of a view of self": (
        "x = torch.randn(4, 3)\nx.index_add_(0, torch.tensor([2, 3]), x[:2])\n",
        "GL013", ["source is a view of self's memory", "`source.clone()`"],
        "x = torch.randn(4, 3)\nx.index_add_(0, torch.tensor([2, 3]), x[:2].clone())\n"),
    "gather into its own input": (
        "x = torch.randn(4, 4)\ntorch.gather(x, 1, torch.zeros(4, 4, dtype=torch.long), out=x)\n",
        "GL013", ["input is out itself", "drop `out=`"],
        "x = torch.randn(4, 4)\nx = torch.gather(x, 1, torch.zeros(4, 4, dtype=torch.long))\n"),
    "scatter_ into an expanded view": (
        "base = torch.zeros(4, 1)\nbuf = base.expand(4, 3)\n"
        "buf.scatter_(1, torch.zeros(4, 1, dtype=torch.long), torch.ones(4, 1))\n",
        "GL013", ["self [4, 3] is an expand()ed view (stride 0 on dim 1)", "`.clone()`"],
        "base = torch.zeros(4, 1)\nbuf = base.expand(4, 3).clone()\n"
        "buf.scatter_(1, torch.zeros(4, 1, dtype=torch.long), torch.ones(4, 1))\n"),
}

# valid calls beside each family of checks: torch accepts them, the runtime says nothing
VALID = {
    "topk of every entry": "x = torch.rand(3, 6)\nout = x.topk(6, dim=1).indices\n",
    "one_hot inferring num_classes": "out = F.one_hot(torch.tensor([0, 3, 1]))\n",
    "one_hot of a [B, T] batch": "out = F.one_hot(torch.randint(0, 5, (2, 3)), 5)\n",
    "cross_entropy with ignore_index padding": (
        "loss = F.cross_entropy(torch.randn(4, 3), torch.tensor([0, -100, 2, 1]))\n"),
    "cross_entropy with probabilities": "loss = F.cross_entropy(torch.randn(4, 3), torch.rand(4, 3).softmax(1))\n",
    "cross_entropy flattened": (
        "logits, tokens = torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5))\n"
        "loss = F.cross_entropy(logits.reshape(-1, 7), tokens.reshape(-1))\n"),
    "nll_loss with a single sample": "loss = F.nll_loss(torch.randn(3).log_softmax(0), torch.tensor(2))\n",
    "scatter_add_ from another tensor": (
        "x = torch.zeros(4, 4)\nx.scatter_add_(1, torch.zeros(4, 4, dtype=torch.long), torch.ones(4, 4))\n"),
    "index_fill_ with a 0-d tensor": (
        "x = torch.zeros(5, 3)\nx.index_fill_(0, torch.tensor([0, 1]), torch.tensor(2.))\n"),
    "scatter out of place with self as src": (
        "x = torch.randn(4, 4)\ny = x.scatter(1, torch.arange(4).flip(0).repeat(4, 1), x)\n"),
}


def _plain_error(code: str) -> BaseException:
    with pytest.raises(Exception) as plain:
        run_snippet(SETUP + code)
    return plain.value


@pytest.mark.parametrize("name", list(CASES))
def test_a_rejected_call_is_explained_with_torchs_type_and_message(name):
    bug, code, phrases, _ = CASES[name]
    torch_error = _plain_error(bug)
    with checked(), pytest.raises(type(torch_error)) as caught:
        run_snippet(SETUP + bug)
    error = caught.value
    assert isinstance(error, GatherLintError) and isinstance(error, type(torch_error))
    text = str(error)
    assert text.startswith(code), text
    for phrase in phrases:
        assert phrase in text, (phrase, text)
    assert text.splitlines()[-1] == str(torch_error).split("\nException raised from ")[0].splitlines()[0]
    assert SNIPPET_FILE in error.location


@pytest.mark.parametrize("name", list(CASES))
def test_the_correct_form_runs_silent_with_torchs_result(name):
    fixed = CASES[name][3]
    torch.manual_seed(0)
    plain = run_snippet(SETUP + fixed)
    checked_run = silent(lambda: run_snippet(SETUP + fixed))
    for key, value in plain.items():
        if isinstance(value, torch.Tensor):
            assert torch.equal(value, checked_run[key]), key


@pytest.mark.parametrize("name", list(VALID))
def test_valid_variants_stay_silent(name):
    torch.manual_seed(0)
    plain = run_snippet(SETUP + VALID[name])
    checked_run = silent(lambda: run_snippet(SETUP + VALID[name]))
    for key, value in plain.items():
        if isinstance(value, torch.Tensor):
            assert torch.equal(value, checked_run[key]), key


def test_warn_mode_warns_and_torch_raises_its_own_error():
    bug = CASES["cross_entropy on [B, T, V] scores"][0]
    with checked(action="warn"), pytest.warns(UserWarning, match="GL004"), \
            pytest.raises(RuntimeError, match=r"Expected target size \[2, 7\], got \[2, 5\]") as caught:
        run_snippet(SETUP + bug)
    assert not isinstance(caught.value, GatherLintError)


def test_except_clauses_written_against_torch_still_catch():
    bug = CASES["nll_loss target past the classes"][0]
    with checked():
        try:
            run_snippet(SETUP + bug)
        except IndexError as error:  # torch raises IndexError for 'Target 3 is out of bounds.'
            assert "GL011" in str(error)
        else:
            pytest.fail("torch rejects the target")


def test_a_rejection_with_no_cause_found_passes_torchs_error_on():
    bug = "out = F.one_hot(torch.tensor([], dtype=torch.long))\n"  # nothing to infer the classes from
    torch_error = _plain_error(bug)
    with checked(), pytest.raises(RuntimeError) as caught:
        run_snippet(SETUP + bug)
    assert not isinstance(caught.value, GatherLintError)
    assert str(caught.value) == str(torch_error)


# --- arithmetic whose operand a reduction or gather in the same function left with a dim dropped or kept ---

ARITHMETIC = {
    "mean over dim 1 subtracted without keepdim": (
        "def centred(x):\n    return x - x.mean(1)\n\nout = centred(torch.randn(4, 8, 16))\n",
        "GL001", ["`x.mean(1)` is [4, 16]", "the mean over dim 1 dropped that dim", "`x` [4, 8, 16]",
                  "size 4 meets 8", "`keepdim=True` (giving [4, 1, 16])"],
        "def centred(x):\n    return x - x.mean(1, keepdim=True)\n\nout = centred(torch.randn(4, 8, 16))\n"),
    "row totals assigned first, then divided": (
        "def shares(x):\n    totals = x.sum(-1)\n    return x / totals\n\nout = shares(torch.rand(4, 8))\n",
        "GL001", ["`totals` is [4]", "the sum over dim -1 (`x.sum(-1)`) dropped that dim", "`.unsqueeze(-1)`"],
        "def shares(x):\n    totals = x.sum(-1)\n    return x / totals.unsqueeze(-1)\n\n"
        "out = shares(torch.rand(4, 8))\n"),
    "max values of each row": (
        "x = torch.randn(3, 5)\nout = x.max(1).values - x\n",
        "GL001", ["`x.max(1).values` is [3]", "the max over dim 1 (`x.max(1)`)"],
        "x = torch.randn(3, 5)\nout = x.max(1, keepdim=True).values - x\n"),
    "gathered log-probs keep their 1 against a mask": (
        "def picked(logp, ids, mask):\n    lp = logp.gather(-1, ids.unsqueeze(-1))\n    return lp * mask\n\n"
        "out = picked(torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5)), torch.ones(2, 5))\n",
        "GL006", ["`lp` is [2, 5, 1]", "gather along dim -1", "`mask` [2, 5]", "`.squeeze(-1)` (giving [2, 5])"],
        "def picked(logp, ids, mask):\n    lp = logp.gather(-1, ids.unsqueeze(-1)).squeeze(-1)\n"
        "    return lp * mask\n\n"
        "out = picked(torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5)), torch.ones(2, 5))\n"),
    "keepdim total against a [B, T] mask": (
        "x, mask = torch.randn(2, 5, 7), torch.ones(2, 5)\ns = x.sum(-1, keepdim=True)\nout = s * mask\n",
        "GL006", ["`s` is [2, 5, 1]", "`keepdim=True` kept the sum over dim -1", "`.squeeze(-1)`"],
        "x, mask = torch.randn(2, 5, 7), torch.ones(2, 5)\ns = x.sum(-1)\nout = s * mask\n"),
}

ARITHMETIC_VALID = {
    "a reduction that broadcasts as meant": "x = torch.randn(4, 8)\nout = x - x.mean(0)\n",
    "a mismatch not made by a reduction": "a, b = torch.randn(4, 3), torch.randn(4)\nout = a + b.unsqueeze(1)\n",
    "a name reassigned later in the loop": (
        "x = torch.randn(3, 5)\ns = x.sum(1, keepdim=True)\nfor _ in range(2):\n    out = x - s\n"
        "    s = x.sum(1, keepdim=True)\n"),
}


def _run_file(tmp_path, program: str) -> dict:
    import runpy

    path = tmp_path / "prog.py"
    path.write_text(SETUP + program)
    return runpy.run_path(str(path), run_name="__main__")


@pytest.mark.parametrize("name", list(ARITHMETIC))
def test_a_size_mismatch_names_the_operand_a_reduction_or_gather_made(name, tmp_path):
    import warnings

    bug, code, phrases, _ = ARITHMETIC[name]
    with pytest.raises(RuntimeError, match="must match the size of tensor b") as plain:
        _run_file(tmp_path, bug)
    with warnings.catch_warnings(), checked(), pytest.raises(RuntimeError) as caught:
        warnings.simplefilter("ignore")  # the gathered operand's GL006 warning comes first, where there is one
        _run_file(tmp_path, bug)
    text = str(caught.value)
    assert isinstance(caught.value, GatherLintError) and text.startswith(code), text
    for phrase in phrases:
        assert phrase in text, (phrase, text)
    assert text.splitlines()[-1] == str(plain.value)
    assert "prog.py" in caught.value.location


@pytest.mark.parametrize("name", list(ARITHMETIC))
def test_the_reduction_or_gather_written_right_runs_silent(name, tmp_path):
    fixed = ARITHMETIC[name][3]
    plain = _run_file(tmp_path, fixed)
    checked_run = silent(lambda: _run_file(tmp_path, fixed))
    assert torch.equal(plain["out"], checked_run["out"])


@pytest.mark.parametrize("name", list(ARITHMETIC_VALID))
def test_valid_arithmetic_stays_silent(name, tmp_path):
    plain = _run_file(tmp_path, ARITHMETIC_VALID[name])
    checked_run = silent(lambda: _run_file(tmp_path, ARITHMETIC_VALID[name]))
    assert torch.equal(plain["out"], checked_run["out"])


def test_a_size_mismatch_with_no_reduction_behind_it_is_torchs_own_error(tmp_path):
    program = "a, b = torch.randn(4, 3), torch.randn(4)\nout = a + b\n"
    with pytest.raises(RuntimeError) as plain:
        _run_file(tmp_path, program)
    with checked(), pytest.raises(RuntimeError) as caught:
        _run_file(tmp_path, program)
    assert not isinstance(caught.value, GatherLintError) and str(caught.value) == str(plain.value)


def test_a_reduction_assigned_before_a_loop_that_reassigns_it_is_not_blamed(tmp_path):
    program = ("x = torch.randn(3, 5)\ns = x.sum(1)\nfor _ in range(2):\n    out = x - s\n"
               "    s = x.sum(1, keepdim=True)\n")
    with checked(), pytest.raises(RuntimeError) as caught:
        _run_file(tmp_path, program)
    assert not isinstance(caught.value, GatherLintError)


def test_an_explanation_that_fails_itself_leaves_torchs_error_as_it_is(monkeypatch):
    from gather_lint.runtime import one_hot_checks

    def broken(*args):
        raise ZeroDivisionError("a bug in the explanation")

    monkeypatch.setattr(one_hot_checks, "rejected", broken)
    bug = CASES["one_hot class past num_classes"][0]
    torch_error = _plain_error(bug)
    with checked(), pytest.raises(RuntimeError) as caught:
        run_snippet(SETUP + bug)
    assert not isinstance(caught.value, GatherLintError) and str(caught.value) == str(torch_error)


def test_a_row_read_from_a_reduction_is_not_taken_for_the_reduction(tmp_path):
    program = "x = torch.randn(4, 4, 3)\nout = x.sum(-1)[0] - x\n"  # row 0 of the sums, [4], against [4, 4, 3]
    with checked(), pytest.raises(RuntimeError) as caught:
        _run_file(tmp_path, program)
    assert not isinstance(caught.value, GatherLintError)
