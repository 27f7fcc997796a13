"""Shape facts from comment lines that name their variables, in the styles real code uses."""
import textwrap

import pytest

from gather_lint.static.shape_text import parse_named_entries

from .conftest import codes


@pytest.mark.parametrize("text, names", [
    ("# memory: [B, N, C]", ["memory"]),
    ("# target: (batch,)  gold token of this step", ["target"]),
    ("# obs: (batch, obs_dim)  act: (batch,)  rew: (batch,)", ["obs", "act", "rew"]),
    ("# scores: [N, C], labels: [N]", ["scores", "labels"]),
    ("# state:   (b_s * beam, d_model) decoder state", ["state"]),
    ("# x.shape = (B, T, D)", ["x"]),
    ("# feats: B x N x C  per point", ["feats"]),
    ("# note: use x for this", []),  # prose, though it has the `a x b` form
    ("# ids: [0, 2, 1]", []),  # a list of values, not sizes
    ("# x: see the docs (for details)", []),
    ("# Note: the batch comes first", []),
    ("# x: (optional) y: [B]", []),  # the list ends at the first thing that is not an entry
])
def test_named_entries(text, names):
    assert [name for name, _ in parse_named_entries(text)] == names


GATHER_FIRST_COLUMN = """
import torch
{header}
    {comments}
    return torch.gather(table, 1, picks.unsqueeze(-1))

table = torch.randn(2, 5, 3)
picks = torch.randint(5, (2, 4))
out = run(table, picks)
assert torch.equal(out.squeeze(-1), torch.stack([table[b, picks[b], 0] for b in range(2)]))  # column 0 only
"""


@pytest.mark.parametrize("header, comments", [
    ("def run(table, picks):", "# table: [batch, rows, width]\n    # picks: [batch, k]"),
    ("def run(table, picks):", "# picks: (batch, k)  table: (batch, rows, width)  both from the loader"),
    ("def run(table, picks):  # table: [batch, rows, width]  picks: [batch, k]", "pass"),
    ("def run(table, picks):", "# gather-lint: shape table=[batch, rows, width]\n    # gather-lint: shape picks=[batch, k]"),
])
def test_standalone_and_def_line_comments_give_shapes(header, comments, torch):
    code = GATHER_FIRST_COLUMN.format(header=header, comments=comments)
    assert codes(code) == ["GL005"]
    exec(textwrap.dedent(code), {})  # torch reads only column 0, silently


def test_a_comment_describes_the_next_binding_of_an_unbound_name():
    code = """
    import torch
    def run(table, scores):
        # table: [batch, rows, width]
        # best: [batch, k]
        best = scores.topk(2, dim=1).indices
        return table.gather(1, best.unsqueeze(-1))
    """
    assert codes(code) == ["GL005"]


def test_a_comment_that_disagrees_with_the_code_is_ignored():
    code = """
    import torch
    def run(picks):
        # table: [batch, rows]
        table = torch.randn(2, 5, 3)
        return table.gather(1, picks.unsqueeze(-1).expand(-1, -1, 3))
    """
    assert codes(code) == []


def test_prose_comments_give_nothing():
    code = """
    import torch
    def run(table, picks):
        # table: see the loader (rows first)
        # picks: one per row
        return torch.gather(table, 1, picks.unsqueeze(-1))
    """
    assert codes(code) == []


def test_docstring_shape_on_the_line_that_continues_an_entry():
    from gather_lint.static.shape_text import parse_docstring

    doc = """Pool.

    Args:
        hidden (`torch.FloatTensor`):
            Token states of shape `(batch, seq, width)`.
        lengths (torch.LongTensor):
            Number of real tokens.
            The output has shape (batch,) with one entry per row.
        mask (Tensor): one per token,
            with shape [batch, seq].
    """
    found = {name: str(shape) for name, (shape, _) in parse_docstring(doc, ["hidden", "lengths", "mask"]).items()}
    assert found == {"hidden": "[batch, seq, width]", "mask": "[batch, seq]"}


def test_numpy_style_docstring_shapes():
    from gather_lint.static.shape_text import parse_docstring

    doc = """Score.

    Parameters
    ----------
    scores : torch.Tensor
        Shape (N, K).
    picks : Tensor of shape (N,)
    weight (Tensor): Shape: [N].
    """
    found = {name: str(shape) for name, (shape, _) in parse_docstring(doc, ["scores", "picks", "weight"]).items()}
    assert found == {"scores": "[N, K]", "picks": "[N]", "weight": "[N]"}
