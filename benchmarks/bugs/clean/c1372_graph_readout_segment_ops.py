import torch
import torch.nn as nn


def segment_sum(src, index, num_segments):
    out_dtype = src.dtype if src.is_floating_point() else torch.float32
    out = torch.zeros((num_segments,) + tuple(src.shape[1:]), dtype=out_dtype, device=src.device)
    return out.index_add_(0, index, src.to(out_dtype))


def segment_count(index, num_segments):
    return torch.bincount(index, minlength=num_segments).to(torch.float32)


def segment_mean(src, index, num_segments):
    total = segment_sum(src, index, num_segments)
    count = segment_count(index, num_segments).clamp(min=1)
    return total / count.view(-1, *([1] * (total.dim() - 1)))


def scatter_sum_dim(src, index, dim, dim_size):
    index = index.view([-1 if d == (dim % src.dim()) else 1 for d in range(src.dim())]).expand_as(src)
    shape = list(src.shape)
    shape[dim] = dim_size
    return torch.zeros(shape, dtype=src.dtype).scatter_add_(dim, index, src)


class AtomwiseReadout(nn.Module):
    def __init__(self, num_types, hidden=16):
        super().__init__()
        self.embed = nn.Embedding(num_types, hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, atom_types, batch, num_graphs):
        h = self.embed(atom_types)
        e_atom = self.mlp(h).squeeze(-1)
        energy = segment_sum(e_atom, batch, num_graphs)
        per_atom = energy / segment_count(batch, num_graphs).clamp(min=1)
        pooled = segment_mean(h, batch, num_graphs)
        return energy, per_atom, pooled


if __name__ == "__main__":
    torch.manual_seed(0)
    model = AtomwiseReadout(num_types=5)
    atom_types = torch.randint(0, 5, (17,))
    batch = torch.tensor([0] * 5 + [1] * 8 + [2] * 4)
    with torch.no_grad():
        energy, per_atom, pooled = model(atom_types, batch, 3)
        h = model.embed(atom_types)
        e_atom = model.mlp(h).squeeze(-1)
    for g in range(3):
        members = [i for i in range(17) if int(batch[i]) == g]
        assert abs(float(energy[g]) - sum(float(e_atom[i]) for i in members)) < 1e-5
        assert abs(float(per_atom[g]) - float(energy[g]) / len(members)) < 1e-6
        assert torch.allclose(pooled[g], h[members].mean(0), atol=1e-6)
    counts = segment_sum(torch.ones(17, dtype=torch.long), batch, 3)
    assert counts.tolist() == [5.0, 8.0, 4.0]
    x = torch.randn(4, 6)
    cols = torch.tensor([0, 2, 2, 1, 0, 2])
    y = scatter_sum_dim(x, cols, dim=1, dim_size=3)
    for r in range(4):
        for c in range(3):
            assert abs(float(y[r, c]) - sum(float(x[r, j]) for j in range(6) if int(cols[j]) == c)) < 1e-5
    print("ok")
