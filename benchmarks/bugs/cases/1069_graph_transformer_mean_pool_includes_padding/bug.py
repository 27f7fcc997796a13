import torch
import torch.nn as nn


def to_dense_batch(h, batch, num_graphs):
    # h: [N, D] node features, batch: [N] graph id of each node (sorted)
    counts = torch.bincount(batch, minlength=num_graphs)          # [B]
    max_len = int(counts.max())
    starts = torch.cumsum(counts, 0) - counts                     # [B]
    pos = torch.arange(h.size(0)) - starts[batch]                 # [N] slot within its graph
    dense = h.new_zeros(max_len, num_graphs, h.size(1))           # [S, B, D]
    dense[pos, batch] = h
    pad_mask = torch.ones(num_graphs, max_len, dtype=torch.bool)  # [B, S] True = padding
    pad_mask[batch, pos] = False
    return dense, pad_mask


class GraphTransPool(nn.Module):
    def __init__(self, dim, num_tasks):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, num_tasks)

    def forward(self, h, batch, num_graphs):
        dense, pad_mask = to_dense_batch(h, batch, num_graphs)    # [S, B, D], [B, S]
        out = torch.tanh(self.proj(dense))                        # [S, B, D] (stand-in for the encoder)
        h_graph = out.sum(0) / (~pad_mask).sum(-1, keepdim=True)  # [B, D] mean over real nodes
        return self.head(h_graph), out, pad_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    h = torch.randn(9, 8)
    batch = torch.tensor([0, 0, 1, 1, 1, 1, 1, 2, 2])
    model = GraphTransPool(8, 1)
    pred, out, pad_mask = model(h, batch, 3)
    print("pred", pred.squeeze(-1).tolist())
