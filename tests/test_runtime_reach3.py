"""Runtime checks of advanced-indexing keys torch rejects with a message naming neither the tensor nor
the cause: a key tensor of a dtype indexing refuses (GL008) and a mask write whose value has another
number of rows than the mask selects (GL003); and the silent outer product of `x[idx]` with a column
index [N, 1] combined with an [N] tensor (GL006), also after a scalar factor.

Each test runs the same call in plain torch first (the oracle: it raises, or shows the grown shape),
then checked: an error is an instance of torch's exception type with torch's own message kept;
correct forms stay silent.
"""

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintWarning, checked  # noqa: E402

from .runtime_checks import silent  # noqa: E402


def torch_error(fn):
    with pytest.raises(Exception) as caught:
        fn()
    return type(caught.value), str(caught.value)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int16, torch.int8])
@pytest.mark.parametrize("form", ["read", "write", "tuple read", "index_put_"])
def test_key_of_a_rejected_dtype_gl008(dtype, form):
    table = torch.randn(5, 3)
    key = torch.tensor([0, 2, 4]).to(dtype)
    calls = {"read": lambda: table[key], "write": lambda: table.__setitem__(key, 1.0),
             "tuple read": lambda: table[torch.arange(3), key.clamp(max=2)],
             "index_put_": lambda: table.clone().index_put_((key,), torch.zeros(3, 3))}
    kind, text = torch_error(calls[form])
    assert kind is IndexError and "tensors used as indices" in text
    with checked(), pytest.raises(IndexError, match=r"(?s)GL008 .*" + str(dtype).replace("torch.", "") + r" tensor.*`\.long\(\)`.*"
                                  r"tensors used as indices must be long"):
        calls[form]()


def test_float_key_from_a_division_names_the_floor_division():
    rows = torch.randn(4, 2)
    flat = torch.tensor([2, 5, 7])
    with checked(), pytest.raises(IndexError, match=r"`//` keeps integers"):
        rows[flat / 2]
    assert torch.equal(silent(lambda: rows[flat // 2]), rows[torch.tensor([1, 2, 3])])


def test_accepted_key_dtypes_stay_silent():
    table = torch.randn(5, 3)
    ids = torch.tensor([0, 4, 1])
    got = silent(lambda: (table[ids], table[ids.int()], table[table[:, 0] > 0], table[ids.unsqueeze(1), torch.tensor([0, 2])]))
    assert torch.equal(got[0], table[ids]) and torch.equal(got[1], table[ids])


def test_mask_write_with_fewer_rows_than_selected_gl003():
    embeds = torch.zeros(2, 4, 3)
    mask = torch.tensor([[False, True, True, False], [True, True, False, False]])  # 4 positions
    features = torch.randn(3, 3)  # made for 3 positions
    kind, text = torch_error(lambda: embeds.__setitem__(mask, features))
    assert kind is RuntimeError and "shape mismatch" in text
    with checked(), pytest.raises(RuntimeError, match=r"(?s)GL003 .*selects 4 positions .*\[4, 3\].*3 rows.*shape mismatch"):
        embeds[mask] = features


def test_mask_writes_that_broadcast_stay_silent():
    def run():
        embeds = torch.zeros(2, 4, 3)
        mask = torch.tensor([[False, True, True, False], [True, True, False, False]])
        embeds[mask] = torch.ones(4, 3)  # one row per selected position
        embeds[mask] = torch.full((3,), 2.0)  # one row for all
        embeds[mask] = 0.5  # a scalar
        embeds[mask] = torch.tensor(1.0)  # a 0-d tensor
        flat = torch.zeros(5)
        flat[flat == 0] = torch.arange(5.0)
        return embeds, flat
    embeds, flat = silent(run)
    assert embeds.sum() == 4 * 3 and torch.equal(flat, torch.arange(5.0))


def test_reported_line_is_the_users(tmp_path):
    import subprocess
    import sys

    script = tmp_path / "prog.py"
    script.write_text("import torch\nx = torch.zeros(3, 2)\nm = torch.tensor([True, True, False])\n"
                      "x[m] = torch.ones(3, 2)\n")
    done = subprocess.run([sys.executable, "-m", "gather_lint.runtime", str(script)], capture_output=True, text=True)
    assert done.returncode != 0 and "GL003" in done.stderr and "prog.py:4" in done.stderr


def test_column_index_read_times_a_vector_gl006():
    weights = torch.tensor([[0.25], [0.5], [0.25]])  # [C, 1] per-class weights
    target = torch.tensor([2, 0, 1, 1]).view(-1, 1)  # [N, 1], made for a scatter or gather
    focal = torch.rand(4)  # [N]
    assert (weights[target] * focal).shape == (4, 1, 4)  # torch: an outer product, silently
    with checked(), pytest.warns(GatherLintWarning, match=r"GL006 .*column index \[N, 1\] returned \[4, 1, 1\].*\[4, 1, 4\]"):
        weights[target] * focal
    with checked(), pytest.warns(GatherLintWarning, match=r"GL006 .*\[4, 1, 4\]"):
        -1 * weights[target] * focal  # the scalar factor keeps the mark


def test_gathered_column_after_a_scalar_factor_gl006():
    q = torch.randn(5, 3)
    actions = torch.tensor([[0], [2], [1], [1], [0]])
    rewards = torch.randn(5)
    assert (0.5 * q.gather(1, actions) - rewards).shape == (5, 5)
    with checked(), pytest.warns(GatherLintWarning, match=r"GL006"):
        0.5 * q.gather(1, actions) - rewards


def test_column_index_reads_used_as_intended_stay_silent():
    weights = torch.tensor([[0.25], [0.5], [0.25]])
    target = torch.tensor([2, 0, 1, 1]).view(-1, 1)
    focal = torch.rand(4)

    def run():
        a = weights[target.view(-1)].view(-1) * focal  # 1-d key: [N, 1] -> [N]
        b = weights[target] * focal.view(-1, 1, 1)  # same shape on both sides
        c = weights[target[:1]] * focal[:1]  # one row: nothing grows
        d = weights[target].flatten() * focal
        e = 2 * weights[target] + torch.zeros(4, 1, 1)
        return a, b, c, d, e
    a, b, c, d, e = silent(run)
    assert a.shape == (4,) and torch.allclose(a, d)


def test_labels_gathered_from_log_softmax_over_the_batch_gl018():
    import torch.nn.functional as F

    scores, target = torch.randn(6, 4), torch.tensor([1, 0, 3, 2, 2, 1])
    wrong = F.log_softmax(scores, dim=0).gather(1, target.unsqueeze(1)).squeeze(1)
    right = torch.stack([F.log_softmax(scores[b], dim=0)[target[b]] for b in range(6)])
    assert not torch.allclose(wrong, right)  # torch: silently other values
    for call in (lambda lp: lp.gather(1, target.unsqueeze(1)), lambda lp: torch.gather(lp, 1, target.unsqueeze(1)),
                 lambda lp: torch.gather(lp, dim=-1, index=target.unsqueeze(1))):
        with checked(), pytest.warns(GatherLintWarning, match=r"GL018 .*log_softmax\(dim=0\) normalised it along dim 0"):
            call(F.log_softmax(scores, dim=0))
    with checked(), pytest.warns(GatherLintWarning, match=r"GL018 F.nll_loss\(\).*dim 0"):
        F.nll_loss(torch.log_softmax(scores, 0), target)
    with checked(), pytest.warns(GatherLintWarning, match=r"GL018"):
        torch.nn.NLLLoss()(torch.nn.LogSoftmax(dim=0)(scores), target)


def test_log_probs_used_along_their_own_dim_or_as_whole_rows_stay_silent():
    import torch.nn.functional as F

    logits = torch.randn(2, 5, 7)  # [B, T, V]
    ids = torch.randint(7, (2, 5))
    last = torch.tensor([4, 2])

    def run():
        lp = logits.log_softmax(-1)
        per_token = lp.gather(-1, ids.unsqueeze(-1))  # along the normalised dim
        step = lp.gather(1, last.view(2, 1, 1).expand(-1, 1, 7))  # one step's whole distribution
        step_copy = lp.gather(1, last.view(2, 1, 1).repeat(1, 1, 7))  # the same, as a copy
        beams = lp.gather(0, torch.tensor([[[1] * 7] * 5, [[0] * 7] * 5]))  # whole rows reordered
        loss = F.nll_loss(F.log_softmax(logits[:, 0], dim=1), ids[:, 0])
        seq_loss = F.nll_loss(F.log_softmax(logits.transpose(1, 2), dim=1), ids)  # [B, C, T]
        return per_token, step, step_copy, beams, loss, seq_loss
    per_token, step, step_copy, *_ = silent(run)
    assert torch.equal(step, step_copy)
