"""GL006 at an element-wise loss between a vector [N] and a column [N, 1], whatever made the column (a
dataset storing targets as columns, a shape comment, a caller): the loss broadcasts them into [N, N]."""
import warnings

import pytest

from .conftest import lint
from .snippets import run_snippet

GRAPH_REGRESSION = '''
import torch
import torch.nn as nn


class Readout(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.out = nn.Linear(dim, 1)

    def forward(self, h, graph_of_node, n_graphs):
        pooled = torch.zeros(n_graphs, h.size(1)).index_add_(0, graph_of_node, h)  # [G, D]
        return self.out(pooled).view(-1)  # [G]


def regression_loss(model, batch, criterion):
    energy = model(batch["h"], batch["graph"], batch["n"])  # [G]
    labels = batch["y"]  # [G, 1]
    return criterion(energy, labels)


if __name__ == "__main__":
    torch.manual_seed(0)
    batch = {"h": torch.randn(9, 4), "graph": torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2]), "n": 3,
             "y": torch.randn(3, 1)}
    loss = regression_loss(Readout(4), batch, nn.MSELoss())
'''

LOSS_LINE = "    return criterion(energy, labels)"

FUNCTIONAL_IN_A_METHOD = '''
import torch
import torch.nn.functional as F


class TDLoss:
    def __init__(self, gamma):
        self.gamma = gamma

    def __call__(self, q_values, actions, returns):
        """
        Args:
            q_values: [B, A]
            actions: [B]
            returns: [B, 1]
        """
        picked = q_values.gather(1, actions.unsqueeze(1)).squeeze(1)
        return F.smooth_l1_loss(returns, picked)
'''


def test_loss_between_a_vector_and_a_column_from_a_caller():
    found = [f for f in lint(GRAPH_REGRESSION) if f.code == "GL006"]
    assert len(found) == 1, [(f.code, f.message) for f in lint(GRAPH_REGRESSION)]
    assert found[0].line == GRAPH_REGRESSION.splitlines().index(LOSS_LINE) + 1
    assert "[G, G]" in found[0].message and "labels.squeeze(-1)" in found[0].message


def test_functional_loss_with_documented_shapes():
    found = [f for f in lint(FUNCTIONAL_IN_A_METHOD) if f.code == "GL006"]
    assert len(found) == 1 and "[B, B]" in found[0].message, [(f.code, f.message) for f in lint(FUNCTIONAL_IN_A_METHOD)]


@pytest.mark.parametrize("code", [
    GRAPH_REGRESSION.replace('"y": torch.randn(3, 1)', '"y": torch.randn(3)').replace("# [G, 1]", "# [G]"),
    GRAPH_REGRESSION.replace(LOSS_LINE, "    return criterion(energy, labels.squeeze(-1))"),
    GRAPH_REGRESSION.replace(LOSS_LINE, "    return criterion(energy.unsqueeze(-1), labels)"),
    # rows that are not certainly the same dim: left alone
    GRAPH_REGRESSION.replace("# [G, 1]", "# [M, 1]").replace('"y": torch.randn(3, 1)', '"y": x_rows'),
    # a batch of one: [1] against [1, 1] is [1, 1]
    FUNCTIONAL_IN_A_METHOD.replace("returns: [B, 1]", "returns: [1, 1]").replace("q_values: [B, A]", "q_values: [1, A]")
    .replace("actions: [B]", "actions: [1]"),
    # arithmetic may build a pairwise table on purpose: only losses are looked at
    GRAPH_REGRESSION.replace(LOSS_LINE, "    return (energy - labels).abs()"),
], ids=["both-vectors", "squeezed", "both-columns", "different-rows", "batch-of-one", "arithmetic"])
def test_matching_shapes_stay_silent(code):
    assert "GL006" not in [f.code for f in lint(code)]


def test_torch_the_loss_compares_every_input_with_every_target(torch):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scope = run_snippet(GRAPH_REGRESSION)
    assert any("different to the input size" in str(w.message) for w in caught)
    model, batch = scope["Readout"](4), scope["batch"]
    pred = model(batch["h"], batch["graph"], batch["n"]).detach()
    target = batch["y"]
    outer = ((pred.unsqueeze(0) - target) ** 2).mean()  # [G, G]
    paired = ((pred - target.squeeze(-1)) ** 2).mean()
    got = torch.nn.functional.mse_loss(pred, target)
    assert torch.isclose(got, outer) and not torch.isclose(got, paired)
