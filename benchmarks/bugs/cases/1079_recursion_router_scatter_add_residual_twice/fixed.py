import torch
import torch.nn as nn
from jaxtyping import Float, Int64


class Block(nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x: Float[torch.Tensor, "b k d"]) -> Float[torch.Tensor, "b k d"]:
        return x + self.mlp(self.norm(x))


class ExpertChoiceRecursion(nn.Module):
    def __init__(self, d: int, capacity: float = 0.5):
        super().__init__()
        self.router = nn.Linear(d, 1)
        self.block = Block(d)
        self.capacity = capacity

    def select(self, x: Float[torch.Tensor, "b s d"]) -> Int64[torch.Tensor, "b k"]:
        k = max(1, int(self.capacity * x.size(1)))
        scores = self.router(x).squeeze(-1)
        return scores.topk(k, dim=-1).indices.sort(dim=-1).values

    def forward(self, x: Float[torch.Tensor, "b s d"]) -> Float[torch.Tensor, "b s d"]:
        idx = self.select(x)
        gather_idx = idx.unsqueeze(-1).expand(-1, -1, x.size(-1))
        selected = torch.gather(x, 1, gather_idx)
        updated = self.block(selected)
        return x.scatter(1, gather_idx, updated)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = ExpertChoiceRecursion(d=8)
    x = torch.randn(2, 6, 8)
    y = layer(x)
    idx = layer.select(x)
    t = int(idx[0, 0])
    ref = x.clone()
    for b in range(2):
        for j in range(idx.size(1)):
            t = int(idx[b, j])
            ref[b, t] = layer.block(x[b, t][None, None])[0, 0]
    assert torch.allclose(y, ref, atol=1e-6)
    print("ok")
