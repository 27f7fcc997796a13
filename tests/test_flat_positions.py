"""Coordinates of nonzero entries combined into flat positions (`b * stride + i`) past the rows of a
flattened batch. Each claim is run in torch."""
import textwrap

import pytest

from .conftest import codes, lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


SELECTED_TOKENS = """
import torch


def selected_features(feats, keep):
    batch, length, width = feats.shape
    where = torch.nonzero(keep)
    flat = where[:, 0] * batch + where[:, 1]
    return feats.reshape(batch * length, width).index_select(0, flat)


if __name__ == "__main__":
    feats = torch.randn(5, 3, 8)
    keep = torch.ones(5, 3, dtype=torch.bool)
    print(selected_features(feats, keep).shape)
"""


def test_a_batch_stride_larger_than_the_rows_per_item_reads_past_the_flat_rows(torch):
    # GL030 where the rows are strided by their own size (batch, not length), GL011 where the positions are used
    assert findings(SELECTED_TOKENS) == [(8, "GL030"), (9, "GL011")]
    with pytest.raises(IndexError, match="out of range"):
        run(SELECTED_TOKENS)["selected_features"](torch.randn(5, 3, 8), torch.ones(5, 3, dtype=torch.bool))


def test_the_stride_of_the_rows_per_item_stays_silent(torch):
    code = SELECTED_TOKENS.replace("where[:, 0] * batch", "where[:, 0] * length")
    assert findings(code) == []
    feats = torch.randn(5, 3, 8)
    picked = run(code)["selected_features"](feats, torch.ones(5, 3, dtype=torch.bool))
    assert torch.equal(picked, feats.reshape(15, 8))


GRAPH_BATCH = """
import torch
import torch.nn as nn


class EdgeScores(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)

    def forward(self, nodes, adjacency):
        graphs, count = nodes.size(0), nodes.size(1)
        flat = self.proj(nodes).view(graphs * count, -1)
        pairs = adjacency.nonzero()
        src = flat[pairs[:, 0] * 4 + pairs[:, 1]]
        return src


if __name__ == "__main__":
    adjacency = torch.eye(3).repeat(6, 1, 1)
    print(EdgeScores(8)(torch.randn(6, 3, 8), adjacency).shape)
"""


def test_a_constant_stride_past_the_nodes_of_each_graph(torch):
    assert findings(GRAPH_BATCH) == [(15, "GL011")]
    with pytest.raises(IndexError, match="index 18 is out of bounds for dimension 0 with size 18"):
        run(GRAPH_BATCH)["EdgeScores"](8)(torch.randn(6, 3, 8), torch.eye(3).repeat(6, 1, 1))


def test_a_constant_stride_that_fits_stays_silent(torch):
    code = GRAPH_BATCH.replace("pairs[:, 0] * 4", "pairs[:, 0] * 3")
    assert findings(code) == []
    run(code)["EdgeScores"](8)(torch.randn(6, 3, 8), torch.eye(3).repeat(6, 1, 1))


BEAM_REORDER = """
import torch

def reorder_states(states, beam_ids, batch_size, beam_size):
    offsets = torch.arange(batch_size).unsqueeze(1) * beam_size
    flat_ids = (beam_ids + offsets).view(-1)
    return states.index_select(0, flat_ids)

def beam_step(log_probs, states, beam_size):
    batch_size, _, vocab_size = log_probs.shape
    _, flat = log_probs.view(batch_size, -1).topk(beam_size, dim=-1)
    return reorder_states(states, flat {OP} vocab_size, batch_size, beam_size)

if __name__ == "__main__":
    out = beam_step(torch.randn(2, 3, 11).log_softmax(-1), torch.randn(6, 5), 3)
"""


def test_a_true_division_stays_a_float_through_offsets_added_in_a_helper(torch):
    code = BEAM_REORDER.format(OP="/")
    assert codes(code) == ["GL008"]
    with pytest.raises(RuntimeError, match="Expected dtype int32 or int64 for index"):
        exec(textwrap.dedent(code), {"__name__": "__main__"})
    fixed = BEAM_REORDER.format(OP="//")
    assert codes(fixed) == []
    exec(textwrap.dedent(fixed), {"__name__": "__main__"})
