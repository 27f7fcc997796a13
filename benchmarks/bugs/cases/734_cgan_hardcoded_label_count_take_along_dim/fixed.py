import torch
import torch.nn as nn
from jaxtyping import Float, Int


class LabelConditioner(nn.Module):
    def __init__(self, latent_dim: int, n_labels: int = 16):
        super().__init__()
        self.n_labels = n_labels
        table = torch.arange(n_labels * latent_dim, dtype=torch.float32).view(n_labels, latent_dim)
        self.label_table = nn.Parameter(table / (n_labels * latent_dim))

    def forward(self, labels: Int[torch.Tensor, "batch"]) -> Float[torch.Tensor, "batch latent"]:
        idx = labels[:, None].expand(-1, self.label_table.size(1))
        return torch.take_along_dim(self.label_table, idx, dim=0)


class Generator(nn.Module):
    def __init__(self, latent_dim: int, n_genes: int, n_labels: int = 16):
        super().__init__()
        self.cond = LabelConditioner(latent_dim, n_labels)
        self.net = nn.Linear(latent_dim, n_genes)

    def forward(
        self, z: Float[torch.Tensor, "batch latent"], labels: Int[torch.Tensor, "batch"]
    ) -> Float[torch.Tensor, "batch genes"]:
        return self.net(z * self.cond(labels))


def load_cell_types(n_cells: int, n_types: int) -> Int[torch.Tensor, "cells"]:
    return torch.arange(n_cells) % n_types


if __name__ == "__main__":
    torch.manual_seed(0)
    labels = load_cell_types(40, 20)
    gen = Generator(latent_dim=4, n_genes=10, n_labels=int(labels.max()) + 1)
    cond = gen.cond(labels)
    table = gen.cond.label_table
    for i in range(labels.numel()):
        for d in range(table.size(1)):
            assert cond[i, d] == table[int(labels[i]), d]
    assert not torch.equal(cond[1], cond[17])
    print("ok")
