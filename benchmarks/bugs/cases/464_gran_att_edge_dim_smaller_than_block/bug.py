from types import SimpleNamespace

import torch
from torch import nn


def load_config():
    cfg = {
        "max_num_nodes": 40,
        "block_size": 24,
        "hidden_dim": 32,
        "att_edge_dim": 16,
    }
    return SimpleNamespace(**cfg)


class GRANEdgeFeatures(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.block_size = config.block_size
        self.att_edge_dim = config.att_edge_dim
        self.proj = nn.Linear(2 * config.att_edge_dim, config.hidden_dim)

    def attention_index(self, num_prev, num_nodes):
        # old nodes get slot 0, nodes of the block being generated get 1, 2, ...
        att_idx = torch.zeros(num_nodes, dtype=torch.long)
        att_idx[num_prev:] = torch.arange(1, num_nodes - num_prev + 1)
        return att_idx

    def forward(self, edges, num_prev, num_nodes):
        att_idx = self.attention_index(num_prev, num_nodes)
        feat = torch.zeros(edges.shape[0], 2 * self.att_edge_dim)
        feat = feat.scatter(1, att_idx[edges[:, 0]].unsqueeze(1), 1.0)
        feat = feat.scatter(1, att_idx[edges[:, 1]].unsqueeze(1) + self.att_edge_dim, 1.0)
        return self.proj(feat)


def candidate_edges(num_prev, num_nodes):
    src, dst = torch.meshgrid(torch.arange(num_prev, num_nodes), torch.arange(num_nodes), indexing="ij")
    return torch.stack([src.reshape(-1), dst.reshape(-1)], dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = load_config()
    layer = GRANEdgeFeatures(config)
    num_prev = 12
    num_nodes = num_prev + config.block_size
    edges = candidate_edges(num_prev, num_nodes)
    out = layer(edges, num_prev, num_nodes)
    print("edge features:", tuple(out.shape))
