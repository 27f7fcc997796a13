"""A sum of two index tensors repeats where the pairs of their values do. That each of them repeats is evidence
of that only when the code made them so (rounded coordinates, drawn ids); a tensor whose repeats only its name
says (`location_ids`, handed in by a caller) adds no such evidence: an expert's id times its capacity plus the
token's slot in it (a mixture of experts' dispatch table) names each slot once. Each claim runs in torch."""
from .conftest import lint
from .snippets import run_snippet

DISPATCH = """
import torch
import torch.nn.functional as F

def route(topk_ids, num_experts):
    expert_ids, location_ids = [], []
    used = torch.zeros(num_experts, dtype=torch.int64)
    for ids in topk_ids:
        mask = F.one_hot(ids, num_experts)
        locations = torch.cumsum(mask, dim=0) - 1 + used
        location_ids.append((locations * mask).sum(dim=1))
        expert_ids.append(ids)
        used += mask.sum(dim=0)
    return torch.stack(expert_ids), torch.stack(location_ids)

def dispatch(expert_ids, location_ids, num_experts, capacity):
    offset = torch.where(location_ids < capacity, expert_ids * capacity + location_ids, num_experts * capacity)
    out = torch.full([num_experts * capacity + 1], -1, dtype=torch.int32)
    sample_ids = torch.arange(offset.numel(), dtype=torch.int32) % expert_ids.shape[1]
    return out.scatter_(0, offset.flatten().long(), sample_ids)[:-1].view(num_experts, capacity)

if __name__ == "__main__":
    torch.manual_seed(3)
    topk_ids = torch.randn(12, 4).topk(2, dim=-1).indices.t()
    expert_ids, location_ids = route(topk_ids, 4)
    OUT = dispatch(expert_ids, location_ids, 4, 6)
    KEPT = [(int(e), int(l)) for e, l in zip(expert_ids.flatten(), location_ids.flatten()) if l < 6]
"""


def test_an_expert_dispatch_table_is_not_reported(torch):
    assert lint(DISPATCH) == []
    scope = run_snippet(DISPATCH)
    assert len(set(scope["KEPT"])) == len(scope["KEPT"])  # each kept (expert, slot) pair once
    assert int((scope["OUT"] >= 0).sum()) == len(scope["KEPT"])  # every kept token has its slot


SPLAT = """
import torch

def splat(points, values, height, width):
    ys = (points[:, 0] * (height - 1)).round().long()
    xs = (points[:, 1] * (width - 1)).round().long()
    image = torch.zeros(height * width)
    image[ys * width + xs] += values
    return image

if __name__ == "__main__":
    torch.manual_seed(0)
    OUT = splat(torch.rand(200, 2), torch.ones(200), 4, 4)
"""


def test_rounded_coordinates_combined_still_repeat(torch):
    assert [f.code for f in lint(SPLAT)] == ["GL013"]
    assert run_snippet(SPLAT)["OUT"].sum() < 200  # points sharing a pixel were counted once
