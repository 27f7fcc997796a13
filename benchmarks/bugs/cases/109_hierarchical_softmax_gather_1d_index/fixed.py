import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor

# taxonomy: node -> parent (-1 for the roots); siblings are stored next to each other
TAXONOMY = {
    "animal": -1, "element": -1,
    "cat": 0, "dog": 0,
    "acid": 1, "base": 1,
    "lion": 2, "tiger": 2, "house-cat": 2,
}


def sibling_groups(parents: list[int]) -> list[int]:
    sizes, prev = [], None
    for p in parents:
        if p == prev:
            sizes[-1] += 1
        else:
            sizes.append(1)
        prev = p
    return sizes


def ancestor_paths(parents: list[int]) -> list[list[int]]:
    paths = []
    for node, parent in enumerate(parents):
        paths.append((paths[parent] if parent >= 0 else []) + [node])
    return paths


class HierarchicalSoftmax(nn.Module):
    def __init__(self, in_dim: int, parents: list[int]):
        super().__init__()
        self.proj = nn.Linear(in_dim, len(parents))
        self.group_sizes = sibling_groups(parents)
        self.paths = ancestor_paths(parents)

    def node_probs(self, logits: Float[Tensor, "batch nodes"]) -> Float[Tensor, "batch nodes"]:
        # conditional probability of each node given its parent
        cond = torch.cat([g.softmax(dim=-1) for g in logits.split(self.group_sizes, dim=1)], dim=1)
        cols = []
        for path in self.paths:
            idx = torch.tensor(path)
            cols.append(torch.index_select(cond, 1, idx).prod(dim=1, keepdim=True))
        return torch.cat(cols, dim=1)

    def forward(self, x: Float[Tensor, "batch in_dim"], labels: Int[Tensor, " batch"]) -> Float[Tensor, ""]:
        probs = self.node_probs(self.proj(x))
        picked = probs.gather(1, labels.unsqueeze(1)).squeeze(1)
        return -picked.clamp(min=1e-10).log().mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    parents = list(TAXONOMY.values())
    model = HierarchicalSoftmax(in_dim=16, parents=parents)
    x = torch.randn(8, 16)
    labels = torch.randint(0, len(parents), (8,))
    loss = model(x, labels)
    logits = model.proj(x)
    probs = model.node_probs(logits)
    ref = torch.ones(8, len(parents))
    for node, path in enumerate(model.paths):
        for n in path:
            sib = [i for i, p in enumerate(parents) if p == parents[n]]
            ref[:, node] *= logits[:, sib].softmax(-1)[:, sib.index(n)]
    assert torch.allclose(probs, ref, atol=1e-6)
    assert torch.isfinite(loss)
    print("ok")
