import torch
import torch.nn as nn

CONFIG = {"dim": 16, "n_atom_types": 5, "cutoff": 5.0, "n_layers": 2}


class Batch:
    def __init__(self, **kw):
        self.__dict__.update(kw)


class SimpleMP(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim + 1, dim)

    def forward(self, h, edge_index, dist):
        src, dst = edge_index
        msg = torch.relu(self.lin(torch.cat([h.index_select(0, src), dist[:, None]], dim=1)))
        return h + torch.zeros_like(h).index_add_(0, dst, msg)


class MXMNetLite(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.dim = config["dim"]
        self.cutoff = config["cutoff"]
        self.embeddings = nn.Parameter(torch.randn(config["n_atom_types"], self.dim))
        self.layers = nn.ModuleList(SimpleMP(self.dim) for _ in range(config["n_layers"]))
        self.out = nn.Linear(self.dim, 1)

    def forward(self, data):
        x, pos, batch = data.x, data.pos, data.batch
        h = torch.index_select(self.embeddings, 0, x.long())
        dist = torch.cdist(pos, pos)
        same = batch[:, None] == batch[None, :]
        edge_index = ((dist < self.cutoff) & same & ~torch.eye(len(pos), dtype=torch.bool)).nonzero().t()
        d = dist[edge_index[0], edge_index[1]]
        for layer in self.layers:
            h = layer(h, edge_index, d)
        node_out = self.out(h).squeeze(-1)
        return torch.zeros(int(batch.max()) + 1).index_add_(0, batch, node_out)


def load_qm9_like(n_mols, seed=0):
    g = torch.Generator().manual_seed(seed)
    z_choices = torch.tensor([1, 6, 7, 8, 9])
    zs, pos, batch, feats = [], [], [], []
    for m in range(n_mols):
        n = int(torch.randint(3, 8, (1,), generator=g))
        z = z_choices[torch.randint(0, 5, (n,), generator=g)]
        one_hot = (z[:, None] == z_choices[None, :]).float()
        extra = torch.stack([z.float(), torch.zeros(n), torch.zeros(n), torch.zeros(n),
                             torch.zeros(n), torch.zeros(n)], dim=1)
        feats.append(torch.cat([one_hot, extra], dim=1))
        zs.append(z)
        pos.append(torch.randn(n, 3, generator=g) * 1.5)
        batch.append(torch.full((n,), m))
    return Batch(x=torch.cat(feats), z=torch.cat(zs), pos=torch.cat(pos), batch=torch.cat(batch))


if __name__ == "__main__":
    torch.manual_seed(0)
    data = load_qm9_like(4)
    model = MXMNetLite(CONFIG)
    print(model(data))
