"""GL003 on a cat's rows: `torch.cat([a, b])` of two `[M, C]` pieces has `2*M` rows, never `M`.

A cat along dim 0 where the feature dim was meant doubles the rows; written back with one index per
node it gives index_copy_/index_add_ twice as many source rows as indices, and a doubled index
scattered with the undoubled src is larger than src. Each program runs in torch first (the oracle:
it raises), then through the linter; the cat along the feature dim, pieces of different named sizes
and a doubled index against a doubled source stay silent.
"""
import textwrap

import pytest

from .conftest import codes, lint
from .snippets import expected_lines, run_program

# a module: two encoders' node features joined, then written back to the nodes (shapes in comments)
JOINED_NODE_FEATURES = """
import torch
import torch.nn as nn


class TwoViewUpdate(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.local = nn.Linear(width, width)
        self.globl = nn.Linear(width, width)

    def forward(self, table, nodes, feats):
        # nodes: [M]  feats: [M, D]
        a = torch.tanh(self.local(feats))  # [M, D]
        b = torch.tanh(self.globl(feats))  # [M, D]
        both = torch.cat({pieces})
        return table.index_copy_(0, nodes, both)  # expect


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = TwoViewUpdate(3)
    out = torch.zeros(6, {width})
    RESULT = layer(out, torch.tensor([5, 0, 2]), torch.randn(3, 3))
"""

# a helper with jaxtyping: the index duplicated for two copies of the messages, the messages not
DOUBLED_INDEX = """
import torch
from jaxtyping import Float, Int
from torch import Tensor


def pool_messages(dst: Int[Tensor, "E"], msg: Float[Tensor, "E H"], n_nodes: int) -> Float[Tensor, "N H"]:
    index = torch.cat([dst, dst]).unsqueeze(-1).expand(-1, msg.size(1))
    out = msg.new_zeros(n_nodes, msg.size(1))
    return out.scatter_add_(0, index, {src})  # expect


if __name__ == "__main__":
    RESULT = pool_messages(torch.tensor([0, 2, 2, 1]), torch.randn(4, 5), 3)
"""

CASES = {
    "cat-of-node-features-index-copy": (JOINED_NODE_FEATURES, {"pieces": "[a, b]", "width": "3"},
                                        {"pieces": "[a, b], dim=-1", "width": "6"}),
    "doubled-index-scatter-add": (DOUBLED_INDEX, {"src": "msg"}, {"src": "torch.cat([msg, msg])"}),
}


def _program(template: str, fill: dict) -> str:
    text = textwrap.dedent(template)
    for key, value in fill.items():
        text = text.replace("{" + key + "}", value)
    return text


def _library(program: str) -> str:
    """The program without its driver: no call's sizes, only the names the code gives."""
    return program.split('if __name__ == "__main__":')[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_cat_doubling_one_side_is_reported_and_torch_raises(case, torch):
    template, bad_fill, _ = CASES[case]
    bad = _program(template, bad_fill)
    found = [f for f in lint(_library(bad)) if f.code == "GL003"]
    assert [f.line for f in found] == expected_lines(bad), lint(_library(bad))
    assert "2*" in found[0].message
    with pytest.raises((RuntimeError, IndexError)):
        run_program(bad)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_matching_cat_is_silent_and_torch_runs(case, torch):
    template, _, good_fill = CASES[case]
    good = _program(template, good_fill)
    assert [f.code for f in lint(good)] == [] and [f.code for f in lint(_library(good))] == []
    run_program(good)


@pytest.mark.parametrize("code", [
    # pieces of different named sizes: their sum is not a multiple of either
    """
    import torch
    def write(out, idx, a, b):
        # idx: [N]  a: [N, D]  b: [M, D]
        return out.index_add_(0, idx, torch.cat([a, b]))
    """,
    # a doubled index for a doubled source
    """
    import torch
    def write(out, i, j, a, b):
        # i: [N]  j: [N]  a: [N, D]  b: [N, D]
        return out.index_add_(0, torch.cat([i, j]), torch.cat([a, b], dim=0))
    """,
    # a scatter whose src has more rows than the index: torch reads the first ones
    """
    import torch
    def write(out, idx, a):
        # idx: [N, D]  a: [N, D]
        return out.scatter(0, idx, torch.cat([a, a]))
    """,
])
def test_near_misses_stay_silent(code):
    assert [f.code for f in lint(textwrap.dedent(code))] == []


@pytest.mark.parametrize("joined", [
    "torch.cat((h, g))",
    "torch.cat([h, g], dim=0)",
    "torch.stack([h, g]).view(-1, h.size(1))",
    "h.repeat(2, 1)",
])
def test_spellings_of_twice_the_rows_are_reported_and_torch_raises(joined, torch):
    code = f"""
    import torch
    def write(out, idx, h, g):
        # idx: [M]  h: [M, C]  g: [M, C]
        return out.index_add_(0, idx, {joined})
    """
    assert [(f.code, f.line) for f in lint(code)] == [("GL003", 5)]
    scope: dict = {}
    exec(textwrap.dedent(code), scope)
    with pytest.raises((RuntimeError, IndexError)):
        scope["write"](torch.zeros(4, 2), torch.tensor([0, 2, 3]), torch.randn(3, 2), torch.randn(3, 2))


WRITE_BY_SUBSCRIPT = """
import torch
from jaxtyping import Float, Int64
from torch import Tensor


def write(out: Float[Tensor, "N C"], idx: Int64[Tensor, "M"], h: Float[Tensor, "M C"], g: Float[Tensor, "M C"]):
    out[idx] = {value}
    return out.gather(0, idx[:, None].expand(-1, h.size(1)))
"""


def test_a_doubled_value_written_by_subscript_is_reported_and_torch_raises(torch):
    bad = _program(WRITE_BY_SUBSCRIPT, {"value": "torch.cat([h, g])"})
    assert [(f.code, f.line) for f in lint(bad)] == [("GL003", 8)], lint(bad)
    scope: dict = {}
    exec(bad, scope)
    with pytest.raises(RuntimeError):
        scope["write"](torch.zeros(5, 2), torch.tensor([0, 3]), torch.randn(2, 2), torch.randn(2, 2))
    good = _program(WRITE_BY_SUBSCRIPT, {"value": "h + g"})
    assert lint(good) == []
    exec(good, scope)
    scope["write"](torch.zeros(5, 2), torch.tensor([0, 3]), torch.randn(2, 2), torch.randn(2, 2))


# features of each image slice, concatenated: one slice of 4 query rows against 12 placeholder positions
SLICES = """
import torch
from torch import nn

def slices(image, most):
    h = image.size(1) // 2
    return [image, image[:, :h], image[:, h:]][:most]

def merge(embeds, positions, parts, proj):
    feats = torch.cat([proj(p.flatten(1).t())[:4] for p in parts], dim=0)
    return embeds.scatter(0, positions.view(-1, 1).repeat(1, embeds.shape[-1]), feats)

if __name__ == "__main__":
    proj = nn.Linear(3, 8)
    with torch.no_grad():
        out = merge(torch.zeros(20, 8), torch.arange(12), slices(torch.randn(3, 4, 4), MOST), proj)
"""


def test_a_comprehension_over_a_list_of_known_length_concatenates_that_many(torch):
    from .snippets import run_snippet
    one = SLICES.replace("MOST", "1")  # 4 feature rows for 12 positions
    with pytest.raises(RuntimeError, match="no larger"):
        run_snippet(one)
    assert codes(one) == ["GL003"]
    three = SLICES.replace("MOST", "3")
    assert run_snippet(three)["out"].shape == (20, 8)
    assert codes(three) == []
