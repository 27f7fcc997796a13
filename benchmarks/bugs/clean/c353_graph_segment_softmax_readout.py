import torch
import torch.nn as nn


def segment_softmax(scores, segment_ids, num_segments):
    """Softmax of `scores` within each segment.

    Args:
        scores: (num_nodes,) float scores.
        segment_ids: (num_nodes,) long graph id of every node, in [0, num_segments).
        num_segments: number of graphs in the batch.

    Returns:
        (num_nodes,) weights that sum to 1 inside every segment.
    """
    seg_max = scores.new_full((num_segments,), float("-inf"))
    seg_max = seg_max.scatter_reduce(0, segment_ids, scores, reduce="amax", include_self=False)
    exp = (scores - seg_max.index_select(0, segment_ids)).exp()
    denom = exp.new_zeros(num_segments).index_add_(0, segment_ids, exp)
    return exp / denom[segment_ids]


class AttentionReadout(nn.Module):
    """Gated attention pooling of node states into one vector per graph.

    Args:
        dim: node feature size.
    """

    def __init__(self, dim):
        super().__init__()
        self.gate = nn.Linear(dim, 1)

    def forward(self, h, batch, num_graphs):
        """
        Args:
            h: (num_nodes, dim) node states.
            batch: (num_nodes,) graph id of every node.
            num_graphs: number of graphs.

        Returns:
            (num_graphs, dim) pooled graph embeddings.
        """
        alpha = segment_softmax(self.gate(h).squeeze(-1), batch, num_graphs)
        pooled = h.new_zeros(num_graphs, h.size(1))
        return pooled.index_add_(0, batch, alpha.unsqueeze(-1) * h)


if __name__ == "__main__":
    torch.manual_seed(0)
    sizes = [3, 5, 1, 4]
    batch = torch.repeat_interleave(torch.arange(len(sizes)), torch.tensor(sizes))
    h = torch.randn(int(sum(sizes)), 6)
    readout = AttentionReadout(6)
    out = readout(h, batch, len(sizes))
    start = 0
    for g, n in enumerate(sizes):
        s = readout.gate(h[start : start + n]).squeeze(-1)
        w = torch.softmax(s, dim=0)
        ref = sum(w[i] * h[start + i] for i in range(n))
        assert torch.allclose(out[g], ref, atol=1e-6)
        start += n
    print("ok")
