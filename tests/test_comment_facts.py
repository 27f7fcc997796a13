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


LAST_REAL_TOKEN = """
import torch

def last_real_token(hidden, attention_mask):
    # hidden: [B, T, H], attention_mask: [B, T] (left or right padded) -> [B, H]
    positions = torch.arange(attention_mask.shape[1]).expand_as(attention_mask)
    last = (positions * attention_mask).argmax(dim=1)  # [B]
    return hidden.gather(1, last[:, None, None].expand(-1, 1, hidden.shape[-1])).squeeze(1)

if __name__ == "__main__":
    hidden = torch.randn(3, {T}, {H})
    mask = torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 1, 0], [0, 1, 1, 1, 1]])
    pooled = last_real_token(hidden, mask)
    for b, row in enumerate(mask.tolist()):
        assert torch.equal(pooled[b], hidden[b, max(i for i, m in enumerate(row) if m)])
"""


@pytest.mark.parametrize("T, H", [(8, 7), (8, 5), (5, 4)])
def test_a_comment_giving_one_name_two_sizes_is_not_the_code(T, H, torch):
    # with T = 8 the mask (5 wide) and `hidden` do not share the T the comment names; the positions still
    # index dim 1 of `hidden`, as torch shows, so nothing may say they belong to dim 2 (H = 5 by chance)
    code = LAST_REAL_TOKEN.format(T=T, H=H)
    assert codes(code) == []
    exec(textwrap.dedent(code), {"__name__": "__main__"})



VOXEL_MEANS = """
import torch

class Voxels:
    def __init__(self, grid):
        self.grid = grid  # (nz, ny, nx)

    def means(self, points, coords):
        # points: [P, C]; coords: [P, 3] = (z, y, x)
        nz, ny, nx = self.grid
        key = (coords[:, 0] * ny + coords[:, 1]) * nx + coords[:, 2]
        uniq, inverse = torch.unique(key, return_inverse=True)
        sums = points.new_zeros(uniq.numel(), points.shape[1])
        sums.index_add_(0, {index}, points)
        return sums, inverse

if __name__ == "__main__":
    coords = torch.stack([torch.randint(0, 3, (50,)), torch.randint(0, 5, (50,)), torch.randint(0, 6, (50,))], 1)
    points = torch.randn(50, 4)
    sums, inverse = Voxels((3, 5, 6)).means(points, coords)
    for v in range(sums.shape[0]):
        assert torch.allclose(sums[v], points[inverse == v].sum(0))
"""


def test_a_comment_listing_the_names_a_tuple_unpacks_into_gives_sizes_not_a_shape(torch):
    # `# (nz, ny, nx)` beside `self.grid`, later `nz, ny, nx = self.grid`: three sizes, not a tensor whose rows
    # would make `key` (and `inverse`) 2-d
    code = VOXEL_MEANS.format(index="inverse")
    assert codes(code) == []
    exec(textwrap.dedent(code), {"__name__": "__main__"})
    bad = VOXEL_MEANS.format(index="inverse.unsqueeze(1)")
    assert codes(bad) == ["GL001"]
    with pytest.raises(IndexError, match="Index is supposed to be a vector"):
        exec(textwrap.dedent(bad), {"__name__": "__main__"})


def test_a_line_above_that_describes_another_name_shapes_nothing_else():
    # `# adj_lists: ... -> (N, K)` above a function's first statement describes the function, not `k`, an int
    from gather_lint.static.analyzer import explain_shapes

    code = textwrap.dedent("""
    import torch

    def collate_neighbors(adj_lists, pad=-1):
        # adj_lists: list of N python lists of neighbour ids -> (N, K) int64, K = longest list
        k = max(len(a) for a in adj_lists)
        out = torch.full((len(adj_lists), k), pad, dtype=torch.long)
        return out
    """)
    shaped = {name for _, _, trace in explain_shapes(code, "x.py") for _, name, _ in trace}
    assert "k" not in shaped and "out" in shaped



REBOUND = """
import torch

def rows(feats, parts):
    # feats: [T, D]
    idx = list(parts)
    # idx: [T]
    idx = torch.cat(idx)
    return feats.gather(0, idx.unsqueeze(1))
"""


def test_a_comment_above_a_rebinding_describes_the_new_value(torch):
    # `# idx: [T]` names what the concatenation makes (the list before it is no tensor): a [T, 1] index on
    # [T, D] rows reads column 0 of each, silently
    feats, parts = torch.randn(5, 3), [torch.tensor([4, 0]), torch.tensor([2, 1, 3])]
    out = feats.gather(0, torch.cat(parts).unsqueeze(1))
    assert out.shape == (5, 1) and torch.equal(out[:, 0], feats[torch.cat(parts), 0])
    assert codes(REBOUND) == ["GL005"]
