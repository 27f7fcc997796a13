import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {
  "num_nodes": 300,
  "num_train": 48,
  "features_num": 16,
  "hidden_dim": 32,
  "class_num": 5,
  "batch_size": 16,
  "nbrs_num": 4,
  "seed": 0,
}


def id2idx(ids):
  """Mapping from a node id to its position in ``ids``."""
  table = torch.zeros(int(ids.max()) + 1, dtype=torch.long)
  table[ids] = torch.arange(ids.numel())
  return table


def read_train_idx_and_label(cfg, g):
  train_idx = torch.randperm(cfg["num_nodes"], generator=g)[: cfg["num_train"]]
  train_label = torch.randint(0, cfg["class_num"], (cfg["num_train"],), generator=g)
  return train_idx, train_label


def build_graph(cfg, g):
  num_edges = cfg["num_nodes"] * 6
  src = torch.randint(0, cfg["num_nodes"], (num_edges,), generator=g)
  dst = torch.randint(0, cfg["num_nodes"], (num_edges,), generator=g)
  nbrs = [[] for _ in range(cfg["num_nodes"])]
  for s, d in zip(src.tolist(), dst.tolist()):
    nbrs[d].append(s)
  features = torch.randn(cfg["num_nodes"], cfg["features_num"], generator=g)
  return nbrs, features


class Batch:
  def __init__(self, x, edge_index, batch, batch_size):
    self.x, self.edge_index, self.batch, self.batch_size = x, edge_index, batch, batch_size


def neighbor_loader(seeds_all, nbrs, features, cfg):
  """One-hop sampled subgraphs; the seeds come first in every subgraph."""
  for start in range(0, seeds_all.numel(), cfg["batch_size"]):
    seeds = seeds_all[start : start + cfg["batch_size"]]
    nodes = seeds.tolist()
    local = {n: i for i, n in enumerate(nodes)}
    rows, cols = [], []
    for s in seeds.tolist():
      for n in nbrs[s][: cfg["nbrs_num"]]:
        if n not in local:
          local[n] = len(nodes)
          nodes.append(n)
        rows.append(local[n])
        cols.append(local[s])
    edge_index = torch.tensor([rows, cols], dtype=torch.long)
    yield Batch(features[torch.tensor(nodes)], edge_index, seeds, seeds.numel())


class SAGE(nn.Module):
  def __init__(self, in_dim, hidden, out_dim):
    super().__init__()
    self.lin_self = nn.Linear(in_dim, hidden)
    self.lin_nbr = nn.Linear(in_dim, hidden)
    self.out = nn.Linear(hidden, out_dim)

  def forward(self, x, edge_index):
    src, dst = edge_index
    agg = torch.zeros_like(x).index_add_(0, dst, x[src])
    deg = torch.zeros(x.size(0)).index_add_(0, dst, torch.ones(dst.numel())).clamp(min=1)
    h = F.relu(self.lin_self(x) + self.lin_nbr(agg / deg.unsqueeze(1)))
    return self.out(h)


def evaluate_loss(model, loader, train_label, train_id2idx):
  losses = []
  with torch.no_grad():
    for batch in loader:
      out = model(batch.x, batch.edge_index)[: batch.batch_size].log_softmax(dim=-1)
      loss = F.nll_loss(out, train_label[train_id2idx[batch.batch]])
      losses.append(loss.item())
  return losses


if __name__ == "__main__":
  cfg = CONFIG
  g = torch.Generator().manual_seed(cfg["seed"])
  torch.manual_seed(cfg["seed"])
  nbrs, features = build_graph(cfg, g)
  train_idx, train_label = read_train_idx_and_label(cfg, g)
  train_id2idx = id2idx(train_idx)
  model = SAGE(cfg["features_num"], cfg["hidden_dim"], cfg["class_num"])
  losses = evaluate_loss(model, neighbor_loader(train_idx, nbrs, features, cfg), train_label, train_id2idx)

  ids = train_idx.tolist()
  ref = []
  with torch.no_grad():
    for batch in neighbor_loader(train_idx, nbrs, features, cfg):
      out = model(batch.x, batch.edge_index).log_softmax(dim=-1)
      total = 0.0
      for i, node in enumerate(batch.batch.tolist()):
        total -= out[i, int(train_label[ids.index(node)])].item()
      ref.append(total / batch.batch_size)
  assert len(losses) == len(ref) and all(abs(a - b) < 1e-5 for a, b in zip(losses, ref)), (losses, ref)
  print("ok")
