"""GL004 where the sizes agree only as numbers: an index laid out like the input for one dim
(`topk(k, dim=-1)` of a tensor shaped like the input) used along another dim."""
import pytest

from .conftest import lint

JAXTYPING_MODULE = '''
import torch
import torch.nn as nn
from jaxtyping import Float


class Router(nn.Module):
    def __init__(self, d: int, n_experts: int, k: int):
        super().__init__()
        self.proj = nn.Linear(d, n_experts)
        self.k = k

    def forward(self, h: Float[torch.Tensor, "batch seq d"]):
        scores = self.proj(h).softmax(-1)
        chosen = scores.topk(self.k, dim=-1).indices
        return scores.gather(1, chosen)


if __name__ == "__main__":
    router = Router(8, 6, 2)
    out = router(torch.randn(3, 10, 8))
'''

COMMENTS_FUNCTION = '''
import torch


def keep_best(cells, k: int):
    # cells: [B, H, W]
    mask = torch.zeros_like(cells)
    best = cells.topk(k, dim=2)[1]
    mask.scatter_(1, best, 1.0)
    return mask
'''

CONSTRUCTORS = '''
import torch

scores = torch.randn(4, 12, 5)
top = torch.argsort(scores, dim=-1, descending=True)[..., :2]
picked = torch.gather(scores, 1, top)
'''

HELPER_AND_DRIVER = '''
import torch


def top_weights(logits, k):
    idx = torch.topk(logits, k, dim=-1)[1]
    return logits.gather(-2, idx)


def main():
    logits = torch.randn(2, 7, 3)
    return top_weights(logits, 2)
'''


@pytest.mark.parametrize("code", [JAXTYPING_MODULE, COMMENTS_FUNCTION, CONSTRUCTORS, HELPER_AND_DRIVER],
                         ids=["jaxtyping-module", "comments-scatter", "constructors-argsort", "helper-driver"])
def test_values_for_the_last_dim_used_along_another(code):
    found = [f for f in lint(code) if f.code == "GL004"]
    assert found, [(f.code, f.message) for f in lint(code)]
    assert "uses them along dim=" in found[0].message


@pytest.mark.parametrize("code", [
    # a square matrix: the values fit both dims, so which one they were made for is unknown
    '''
import torch
dist = torch.randn(2, 6, 6)
nn_idx = dist.topk(3, dim=-1).indices
out = dist.gather(1, nn_idx)
''',
    # the neighbour-gather idiom: values for dim 1 of the features, used along dim 1
    '''
import torch
dist = torch.randn(2, 6, 6)
feats = torch.randn(2, 6, 4)
nn_idx = dist.topk(3, dim=-1).indices
out = feats.gather(1, nn_idx.reshape(2, -1, 1).expand(-1, -1, 4))
''',
    # the right dim
    '''
import torch
scores = torch.randn(4, 12, 5)
top = scores.topk(2, dim=-1).indices
picked = scores.gather(-1, top)
''',
])
def test_other_layouts_stay_silent(code):
    assert "GL004" not in [f.code for f in lint(code)]


def test_torch_silently_reads_other_entries(torch):
    """The message's claim: the values fit dim 1, so torch runs and reads entries the top-k did not pick."""
    scores = torch.randn(4, 12, 5)
    top = scores.topk(2, dim=-1).indices
    wrong = scores.gather(1, top)  # no error: values < 5 <= 12
    right = scores.gather(-1, top)
    assert wrong.shape == right.shape
    assert not torch.equal(wrong, right)
    assert torch.equal(right, scores.topk(2, dim=-1).values)
    mask = torch.zeros_like(scores).scatter_(1, top, 1.0)  # runs too, marking the wrong cells
    assert not torch.equal(mask, torch.zeros_like(scores).scatter_(-1, top, 1.0))
