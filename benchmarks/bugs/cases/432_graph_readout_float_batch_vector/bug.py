import torch
import torch.nn as nn


def make_molecule(num_atoms, cfg, gen):
    x = torch.randn(num_atoms, cfg["in_dim"], generator=gen)
    ring = torch.arange(num_atoms)
    edge_index = torch.stack([ring, (ring + 1) % num_atoms])
    y = torch.randn((), generator=gen)
    return x, edge_index, y


def collate_graphs(samples):
    xs, edges, graph_ids, ys = [], [], [], []
    offset = 0
    for g, (x, edge_index, y) in enumerate(samples):
        xs.append(x)
        edges.append(edge_index + offset)
        graph_ids.append(torch.ones(x.size(0)) * g)
        ys.append(y)
        offset += x.size(0)
    return torch.cat(xs), torch.cat(edges, dim=1), torch.cat(graph_ids), torch.stack(ys)


def mean_readout(h, batch, num_graphs):
    index = batch.unsqueeze(-1).expand_as(h)
    summed = h.new_zeros(num_graphs, h.size(-1)).scatter_add_(0, index, h)
    counts = h.new_zeros(num_graphs).scatter_add_(0, batch, torch.ones_like(batch))
    return summed / counts.clamp_min(1).unsqueeze(-1)


class GraphRegressor(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Linear(cfg["in_dim"], cfg["hidden"])
        self.head = nn.Linear(cfg["hidden"], 1)

    def forward(self, x, edge_index, batch, num_graphs):
        h = torch.relu(self.embed(x))
        src, dst = edge_index
        h = h.index_add(0, dst, h[src])
        return self.head(mean_readout(h, batch, num_graphs)).squeeze(-1)


def train_step(model, opt, samples):
    x, edge_index, batch, y = collate_graphs(samples)
    pred = model(x, edge_index, batch, num_graphs=len(samples))
    loss = nn.functional.mse_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    cfg = {"in_dim": 5, "hidden": 16, "sizes": [4, 6, 3]}
    gen = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    samples = [make_molecule(n, cfg, gen) for n in cfg["sizes"]]
    model = GraphRegressor(cfg)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    print("loss:", train_step(model, opt, samples))
