"""`row, col = edge_index`: unpacking a tensor gives each name a dim-0 slice, so the rows of an edge
list keep their length (and a scatter of node features with an edge-sized index is seen)."""
import pytest

from .conftest import lint

DOCSTRING_FUNCTION = '''
import torch


def neighbour_sum(feats, edges):
    """
    Args:
        feats (Tensor): (n_nodes, channels)
        edges (LongTensor): (2, n_edges)
    """
    sender, receiver = edges
    total = torch.zeros_like(feats)
    return total.scatter_add(0, receiver.view(-1, 1).expand(-1, feats.size(1)), feats)


def demo():
    feats = torch.randn(4, 3)
    edges = torch.tensor([[0, 1, 2, 3, 0, 2], [1, 2, 3, 0, 2, 0]])
    return neighbour_sum(feats, edges)
'''

JAXTYPING = '''
import torch
from jaxtyping import Float, Int
from torch import Tensor


def pool(h: Float[Tensor, "5 8"], graph: Int[Tensor, "2 9"]) -> Float[Tensor, "5 8"]:
    row, col = graph
    idx = col.unsqueeze(1).repeat(1, 8)
    return torch.zeros(5, 8).scatter_add_(0, idx, h)
'''

MODULE_DRIVER = '''
import torch
import torch.nn as nn


class Conv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)

    def forward(self, x, edge_index):
        # x: [N, C]
        j, i = edge_index
        out = x.new_zeros(x.shape)
        out.scatter_reduce_(0, i[:, None].expand(-1, x.size(1)), x, reduce="sum")
        return self.lin(out)


if __name__ == "__main__":
    conv = Conv(2)
    y = conv(torch.randn(3, 2), torch.tensor([[0, 1, 2, 2, 1], [1, 2, 0, 1, 0]]))
'''


@pytest.mark.parametrize("code", [DOCSTRING_FUNCTION, JAXTYPING, MODULE_DRIVER],
                         ids=["docstring-driver", "jaxtyping", "module-driver"])
def test_node_features_scattered_with_edge_index(code):
    found = [f for f in lint(code) if f.code == "GL003"]
    assert len(found) == 1, [(f.code, f.message) for f in lint(code)]
    assert "larger than src" in found[0].message


def test_unpacked_rows_have_the_tail_shape():
    from gather_lint.static.analyzer import lint_source

    sites = []
    code = '''
import torch
pairs = torch.tensor([[0, 1, 1], [1, 2, 0]])
a, b = pairs
src = torch.randn(3, 4)
out = torch.zeros(3, 4).scatter(0, b.unsqueeze(1).expand(-1, 4), src)
'''
    lint_source(code, "snippet.py", observe=lambda line, site, unknown: sites.append(site))
    assert [tuple(s.index.shape.dims) for s in sites] == [(3, 4)]


@pytest.mark.parametrize("code", [
    # messages gathered per edge first: the fix
    '''
import torch
def agg(x, edge_index):
    """
    Args:
        x (Tensor): (n_nodes, channels)
        edge_index (LongTensor): (2, n_edges)
    """
    src, dst = edge_index
    out = torch.zeros_like(x)
    return out.scatter_add(0, dst.unsqueeze(-1).expand(-1, x.size(-1)), x[src])
''',
    # three names for two rows: Python raises, nothing is bound
    '''
import torch
pairs = torch.tensor([[0, 1], [1, 0]])
try:
    a, b, c = pairs
except ValueError:
    a = b = c = None
''',
])
def test_right_code_stays_silent(code):
    assert not [f for f in lint(code) if f.code.startswith("GL")]


def test_torch_rejects_node_sized_src_with_edge_sized_index(torch):
    x = torch.randn(4, 3)
    edges = torch.tensor([[0, 1, 2, 3, 0, 2], [1, 2, 3, 0, 2, 0]])
    src, dst = edges
    assert src.shape == (6,) and dst.shape == (6,)
    index = dst.view(-1, 1).expand(-1, 3)
    with pytest.raises(RuntimeError, match="no larger size than src"):
        torch.zeros_like(x).scatter_add(0, index, x)
    torch.zeros_like(x).scatter_add(0, index, x[src])  # per-edge messages: runs
