import numpy as np
import torch
import torch.nn as nn


class RGCNBlockLayer(nn.Module):
    def __init__(self, in_feat, out_feat, num_rels, num_bases):
        super().__init__()
        self.submat_in = in_feat // num_bases
        self.submat_out = out_feat // num_bases
        self.out_feat = out_feat
        self.weight = nn.Parameter(torch.empty(num_rels, num_bases * self.submat_in * self.submat_out))
        nn.init.xavier_uniform_(self.weight)

    def message(self, h_src, etype):
        weight = self.weight.index_select(0, etype).view(-1, self.submat_in, self.submat_out)
        node = h_src.reshape(-1, 1, self.submat_in)
        return torch.bmm(node, weight).view(-1, self.out_feat)

    def forward(self, graph, h):
        src, dst = graph["src"], graph["dst"]
        msg = self.message(h.index_select(0, src), graph["etype"])
        msg = msg * graph["norm"]
        return torch.zeros(h.size(0), self.out_feat).index_add_(0, dst, msg)


def build_test_graph(num_nodes, triplets):
    src, rel, dst = triplets.T
    src, dst = np.concatenate((src, dst)), np.concatenate((dst, src))
    rel = np.concatenate((rel, rel + triplets[:, 1].max() + 1))
    in_deg = np.bincount(dst, minlength=num_nodes)
    norm = 1.0 / np.maximum(in_deg[dst], 1)
    return {
        "src": torch.from_numpy(src),
        "dst": torch.from_numpy(dst),
        "etype": torch.from_numpy(rel).view(-1, 1),
        "norm": torch.from_numpy(norm).float().view(-1, 1),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    cfg = {"num_nodes": 12, "num_rels": 3, "h_dim": 8, "num_bases": 4}
    triplets = np.stack([rng.integers(0, 12, 30), rng.integers(0, 3, 30), rng.integers(0, 12, 30)], axis=1)
    graph = build_test_graph(cfg["num_nodes"], triplets)
    layer = RGCNBlockLayer(cfg["h_dim"], cfg["h_dim"], cfg["num_rels"] * 2, cfg["num_bases"])
    emb = nn.Embedding(cfg["num_nodes"], cfg["h_dim"])
    out = layer(graph, emb.weight)
    print(out.shape)
