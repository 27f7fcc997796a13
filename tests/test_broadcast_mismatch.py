"""GL036: two tensors combined elementwise whose aligned sizes cannot broadcast. The mistake written in the forms
real code uses (an operator, a comparison, a torch function, sizes from a driver, a docstring or constructors, a
driver without a guard) is reported, and torch raises on each; the same code with the axis put
where it belongs, or with sizes the analysis does not know for certain, stays silent and runs.

The facts the rule reads were wrong in places it exposed; each has its own test here: `torch.arange` with a step
(or any argument by keyword), `x.type()` with no argument (a string), and a chained comparison guarding a branch."""
import textwrap

import pytest

from .conftest import lint
from .snippets import reported_and_raised, run_snippet, silent_and_run

torch = pytest.importorskip("torch")

OPERATOR = """
import torch

def weighted(log_probs, ids, weights):
    token_logp = log_probs.gather(-1, ids.unsqueeze(-1)).squeeze(-1)
    return (weights{axis} * token_logp).mean()

if __name__ == "__main__":
    out = weighted(torch.randn(4, 6, 10).log_softmax(-1), torch.randint(0, 10, (4, 6)), torch.rand(4))
"""

COMPARISON = """
import torch

def confident(scores, labels, thresholds):
    \"\"\"Whether each box's labelled class clears the box's own threshold.

    scores: (num_boxes, num_classes)
    thresholds: (num_boxes,)
    \"\"\"
    keep = scores > thresholds{axis}
    return keep.gather(1, labels[:, None])

if __name__ == "__main__":
    out = confident(torch.rand(5, 3), torch.randint(0, 3, (5,)), torch.rand(5))
"""

FUNCTION = """
import torch

def per_token_timesteps(first_frame_mask, timesteps, order):
    picked = timesteps.index_select(0, order)
    return torch.mul(first_frame_mask.unsqueeze(0), picked{axis})

num_frames, height, width = 3, 4, 6
mask = torch.ones(num_frames, height, width)
out = per_token_timesteps(mask, torch.tensor([10.0, 20.0]), torch.tensor([1, 0]))
"""

FORMS = {
    "operator beside a gather, sizes from a driver": (OPERATOR, "", "[:, None]"),
    "comparison, docstring shapes": (COMPARISON, "", "[:, None]"),
    "torch function, driver without a guard": (FUNCTION, "", "[:, None, None, None]"),
}


@pytest.mark.parametrize("name", list(FORMS))
def test_sizes_that_cannot_broadcast_are_reported_and_torch_raises(name):
    program, bad, _ = FORMS[name]
    code = textwrap.dedent(program.replace("{axis}", bad))
    reported_and_raised(lint(code), code, ["GL036"], RuntimeError, "must match the size of tensor b")


@pytest.mark.parametrize("name", list(FORMS))
def test_the_axis_put_where_it_belongs_is_silent_and_torch_runs_it(name):
    program, _, good = FORMS[name]
    code = textwrap.dedent(program.replace("{axis}", good))
    silent_and_run(lint(code), code)


IN_PLACE = """
import torch

def accumulate(total, update, scale, order):
    update = update.index_select(1, order)
    total {write}
    return total

if __name__ == "__main__":
    out = accumulate(torch.zeros(4, 1), torch.ones(4, 6), torch.ones(6), torch.arange(6))
"""


@pytest.mark.parametrize("write", ["+= update", "*= scale", "= total.add_(update)", "= total.mul_(scale)"])
def test_an_in_place_op_that_would_grow_its_tensor_is_reported_and_torch_raises(write):
    code = textwrap.dedent(IN_PLACE.replace("{write}", write))
    (finding,) = lint(code)
    assert finding.code == "GL036" and "doesn't match the broadcast shape [4, 6]" in finding.message
    with pytest.raises(RuntimeError, match=r"output with shape \[4, 1\] doesn't match the broadcast shape \[4, 6\]"):
        run_snippet(code)


def test_an_in_place_message_writes_a_size_it_does_not_know_by_its_name():
    code = textwrap.dedent(IN_PLACE.replace("{write}", "+= update").replace("torch.zeros(4, 1)", "torch.zeros(int('4'), 1)"))
    (finding,) = lint(code)
    assert "'output with shape [" in finding.message and "None" not in finding.message
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        run_snippet(code)


@pytest.mark.parametrize("write", ["= total + update", "= total * scale", "+= update.sum(1, keepdim=True)"])
def test_the_same_combination_out_of_place_or_reduced_is_silent_and_runs(write):
    code = textwrap.dedent(IN_PLACE.replace("{write}", write))
    assert lint(code) == []
    run_snippet(code)


def test_the_message_names_both_shapes_the_dim_and_torchs_error():
    (finding,) = lint(OPERATOR.replace("{axis}", ""))
    assert "`weights`" in finding.message and "`token_logp`" in finding.message and "at dim 1 of the result" in finding.message
    assert "The size of tensor a (4) must match the size of tensor b (6) at non-singleton dimension 1" in finding.message
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(4\) must match the size of tensor b \(6\) at "
                                           r"non-singleton dimension 1"):
        run_snippet(OPERATOR.replace("{axis}", ""))


def test_sizes_known_only_by_name_stay_silent():
    code = """
    import torch

    def weighted(losses, weights):
        # losses: [B, T], weights: [B]
        return (weights * losses).mean()
    """
    assert lint(code) == []  # B and T may be equal: torch then broadcasts without a word


def test_a_size_of_one_broadcasts_and_stays_silent():
    code = """
    import torch

    scores = torch.rand(4, 1)
    bias = torch.rand(6)
    out = scores + bias
    """
    assert lint(code) == []
    run_snippet(code)


@pytest.mark.parametrize("call, length", [("torch.arange(0, 6, step=3)", 2), ("torch.arange(1, 7, 2)", 3),
                                          ("torch.arange(2, end=6)", 4), ("torch.arange(end=5)", 5),
                                          ("torch.arange(0, 10, step=3)", 4)])
def test_arange_counts_its_step_and_keywords(call, length):
    code = f"""
    import torch

    def offset(rows, wider):
        offsets = {call}
        rows = rows.index_select(0, torch.arange(2))
        return rows + offsets, wider + offsets

    out = offset(torch.zeros(2, {length}), torch.zeros(2, {length + 1}))
    """
    assert eval(call, {"torch": torch}).numel() == length
    assert [(v.code, v.line) for v in lint(code)] == [("GL036", 7)]
    with pytest.raises(RuntimeError, match="must match the size"):
        run_snippet(code)


def test_beam_offsets_with_a_step_broadcast_against_the_beams():
    code = """
    import torch

    def select(topk_beam_index, batch_size, beam_size):
        beam_offset = torch.arange(0, batch_size * beam_size, step=beam_size)
        return topk_beam_index + beam_offset.unsqueeze(1)

    if __name__ == "__main__":
        out = select(torch.randint(0, 3, (2, 3)), 2, 3)
    """
    assert lint(code) == []
    run_snippet(code)


def test_arange_positions_with_a_step_reach_their_last_value_only():
    reached = """
    import torch

    table = torch.zeros(5, 2)
    idx = torch.arange(0, 7, step=3)
    out = table.gather(0, idx[:, None].expand(-1, 2))
    """
    (finding,) = lint(reached)
    assert finding.code == "GL011" and "arange(0, 7, 3)" in finding.message and "up to 6" in finding.message
    with pytest.raises(RuntimeError, match="out of bounds"):
        run_snippet(reached)
    within = reached.replace("arange(0, 7, step=3)", "arange(0, 6, step=3)")
    assert lint(within) == []
    run_snippet(within)


def test_type_without_arguments_is_a_string_not_a_tensor():
    code = """
    import torch

    def focal(logits, alpha):
        if alpha.type() != logits.type():
            alpha = alpha.type_as(logits)
        return logits.gather(1, torch.zeros(logits.size(0), 1, dtype=torch.long)) * alpha[0]

    if __name__ == "__main__":
        out = focal(torch.randn(32, 6), torch.tensor([0.25, 0.75]))
    """
    assert lint(code) == []
    run_snippet(code)


def test_a_chained_comparison_decides_its_branch():
    code = """
    import torch

    classes = torch.tensor([0, 2, 3, 1, -1])
    deltas = torch.randn(5, 12)
    targets = torch.randn(5, 4)
    total = 0.0
    for i in range(5):
        c = int(classes[i])
        if 0 <= c < 3:
            total += (deltas[i, 4 * c : 4 * c + 4] - targets[i]).abs().sum().item()
    """
    assert lint(code) == []
    run_snippet(code)
    unguarded = code.replace("if 0 <= c < 3:", "if True:")
    assert [v.code for v in lint(unguarded)] == ["GL036"]  # c = -1 slices 4 * -1 : 0, nothing
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(0\) must match"):
        run_snippet(unguarded)
