import torch
from torch import nn


def batch_graphs(graphs):
    feats = torch.cat([g["x"] for g in graphs])
    sizes = [g["x"].shape[0] for g in graphs]
    return feats, sizes


def max_readout(feat, batch_num_nodes):
    n_graphs, max_n = len(batch_num_nodes), max(batch_num_nodes)
    index = torch.cat([torch.arange(n) + i * max_n for i, n in enumerate(batch_num_nodes)])
    padded = torch.zeros(n_graphs * max_n, feat.shape[1], dtype=feat.dtype)
    padded = padded.index_copy(0, index, feat)
    padded = padded.view(n_graphs, max_n, feat.shape[1])
    return padded.max(dim=1).values


class GraphClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = nn.Linear(cfg["in_dim"], cfg["hidden"])
        self.head = nn.Linear(cfg["hidden"], cfg["classes"])

    def forward(self, feats, sizes):
        h = self.encoder(feats)
        return self.head(max_readout(h, sizes)), h


if __name__ == "__main__":
    torch.manual_seed(5)
    cfg = {"in_dim": 6, "hidden": 4, "classes": 2}
    graphs = [{"x": torch.randn(n, cfg["in_dim"])} for n in (7, 2, 3)]
    feats, sizes = batch_graphs(graphs)
    model = GraphClassifier(cfg)
    logits, h = model(feats, sizes)
    pooled = max_readout(h, sizes)
    print("pooled graph 1:", [round(v, 4) for v in pooled[1].tolist()])
    print("max over its 2 nodes:", [round(v, 4) for v in h[7:9].max(0).values.tolist()])
