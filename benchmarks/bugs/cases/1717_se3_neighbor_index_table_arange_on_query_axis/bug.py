import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor


def batched_index_select(
    values: Float[Tensor, "b n d"], indices: Int[Tensor, "b i k"]
) -> Float[Tensor, "b i k d"]:
    b, i, k = indices.shape
    flat = indices.reshape(b, i * k, 1).expand(-1, -1, values.shape[-1])
    return values.gather(1, flat).reshape(b, i, k, values.shape[-1])


def nearest_neighbor_indices(coors: Float[Tensor, "b n 3"], num_neighbors: int) -> Int[Tensor, "b n k"]:
    b, n, _ = coors.shape
    exclude_self_mask: Bool[Tensor, "n n"] = ~torch.eye(n, dtype=torch.bool, device=coors.device)

    # exclude edge of token to itself
    indices = torch.arange(n, device=coors.device).view(1, n, 1).expand(b, n, n)
    rel_pos = coors[:, :, None, :] - coors[:, None, :, :]

    indices = indices.masked_select(exclude_self_mask).reshape(b, n, n - 1)
    rel_dist = rel_pos.norm(dim=-1).masked_select(exclude_self_mask).reshape(b, n, n - 1)

    _, nearest = rel_dist.topk(num_neighbors, dim=-1, largest=False)
    return indices.gather(2, nearest)


class EquivariantMessagePassing(nn.Module):
    def __init__(self, dim: int, num_neighbors: int):
        super().__init__()
        self.num_neighbors = num_neighbors
        self.to_message = nn.Sequential(nn.Linear(2 * dim + 1, dim), nn.SiLU())

    def forward(self, feats: Float[Tensor, "b n d"], coors: Float[Tensor, "b n 3"]) -> Float[Tensor, "b n d"]:
        neighbor_indices = nearest_neighbor_indices(coors, self.num_neighbors)
        neighbor_feats = batched_index_select(feats, neighbor_indices)
        neighbor_coors = batched_index_select(coors, neighbor_indices)
        dist = (coors[:, :, None] - neighbor_coors).norm(dim=-1, keepdim=True)
        self_feats = feats[:, :, None].expand_as(neighbor_feats)
        messages = self.to_message(torch.cat((self_feats, neighbor_feats, dist), dim=-1))
        return feats + messages.mean(dim=2)


def reference_neighbors(coors, k):
    out = []
    for pts in coors:
        rows = []
        for i in range(len(pts)):
            d = [((pts[i] - pts[j]).norm().item(), j) for j in range(len(pts)) if j != i]
            rows.append([j for _, j in sorted(d)[:k]])
        out.append(rows)
    return torch.tensor(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = EquivariantMessagePassing(dim=16, num_neighbors=4)
    feats = torch.randn(2, 12, 16)
    coors = torch.randn(2, 12, 3)

    got = nearest_neighbor_indices(coors, 4)
    ref = reference_neighbors(coors, 4)
    print("node 3 neighbours:", got[0, 3].tolist(), "expected:", ref[0, 3].tolist())
    same = all(set(a) == set(r) for a, r in zip(got.view(-1, 4).tolist(), ref.view(-1, 4).tolist()))
    print("neighbour sets match reference:", same)
    print("layer output shape:", tuple(layer(feats, coors).shape))
