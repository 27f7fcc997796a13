import torch
import torch.nn as nn


class GCNLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)

    def forward(self, h, src, dst, norm):
        msg = h[src] * norm[:, None]
        agg = torch.zeros_like(h).index_add_(0, dst, msg)
        return torch.relu(self.lin(agg)) + h


class GCNNet(nn.Module):
    def __init__(self, num_atom_type, hidden_dim, n_layers):
        super().__init__()
        self.embedding_h = nn.Embedding(num_atom_type, hidden_dim)
        self.layers = nn.ModuleList(GCNLayer(hidden_dim) for _ in range(n_layers))
        self.MLP_layer = nn.Sequential(nn.Linear(hidden_dim, hidden_dim // 2), nn.ReLU(),
                                       nn.Linear(hidden_dim // 2, 1))

    def forward(self, atom_types, src, dst, graph_ids, num_graphs):
        h = self.embedding_h(atom_types)
        deg = torch.bincount(dst, minlength=h.size(0)).clamp(min=1).float()
        norm = (deg[src] * deg[dst]).rsqrt()
        for layer in self.layers:
            h = layer(h, src, dst, norm)
        node_scores = self.MLP_layer(h)
        scores = torch.zeros(num_graphs, 1).scatter_reduce(
            0, graph_ids[:, None], node_scores, reduce="mean", include_self=False)
        return scores.squeeze(-1)

    def loss(self, scores, targets):
        return nn.L1Loss()(scores, targets)


def make_batch(num_graphs, seed):
    g = torch.Generator().manual_seed(seed)
    types, src, dst, gids, offset = [], [], [], [], 0
    for b in range(num_graphs):
        n = int(torch.randint(4, 9, (1,), generator=g))
        types.append(torch.randint(0, 28, (n,), generator=g))
        for i in range(n - 1):
            src += [offset + i, offset + i + 1]
            dst += [offset + i + 1, offset + i]
        gids.append(torch.full((n,), b))
        offset += n
    targets = torch.randn(num_graphs, generator=g)
    return torch.cat(types), torch.tensor(src), torch.tensor(dst), torch.cat(gids), targets


if __name__ == "__main__":
    torch.manual_seed(0)
    model = GCNNet(num_atom_type=28, hidden_dim=32, n_layers=3)
    atom_types, src, dst, graph_ids, targets = make_batch(128, seed=0)
    with torch.no_grad():
        scores = model(atom_types, src, dst, graph_ids, 128)
        loss = model.loss(scores, targets)
        assert scores.shape == (128,)
        h = model.embedding_h(atom_types)
        deg = torch.bincount(dst, minlength=h.size(0)).clamp(min=1).float()
        for layer in model.layers:
            agg = torch.zeros_like(h)
            for s_, d_ in zip(src.tolist(), dst.tolist()):
                agg[d_] += h[s_] / (deg[s_] * deg[d_]).sqrt()
            h = torch.relu(layer.lin(agg)) + h
        node_scores = model.MLP_layer(h)[:, 0]
        ref_scores = torch.stack([node_scores[graph_ids == b].mean() for b in range(128)])
        assert torch.allclose(scores, ref_scores, atol=1e-4)
        ref_loss = sum(abs(ref_scores[b].item() - targets[b].item()) for b in range(128)) / 128
        assert abs(loss.item() - ref_loss) < 1e-4
    print("ok")
