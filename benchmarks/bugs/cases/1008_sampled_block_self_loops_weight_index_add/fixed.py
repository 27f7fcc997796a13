import torch


class WeightedNeighborSampler:
    """Returns the sub-graph of a node batch; the message-passing layers expect self-loops at the end."""

    def __init__(self, edge_index, edge_weight, num_nodes):
        self.edge_index = edge_index      # [2, E]
        self.edge_weight = edge_weight    # [E]
        self.num_nodes = num_nodes

    def sample(self):
        loops = torch.arange(self.num_nodes).repeat(2, 1)          # [2, N]
        block = torch.cat([self.edge_index, loops], dim=1)         # [2, E + N]
        weight = torch.cat([self.edge_weight, torch.ones(self.num_nodes)])  # [E + N]
        return block, weight


def weighted_aggregate(x, block, weight):
    # x: [N, D], block: [2, E'] (src, dst), weight: [E'] one weight per edge of block
    src, dst = block
    msgs = x.index_select(0, src)                                  # [E', D]
    norm = torch.zeros(x.shape[0]).index_add_(0, dst, weight)      # [N]
    scaled = msgs * (weight / norm[dst]).unsqueeze(1)               # [E', D]
    return torch.zeros_like(x).index_add_(0, dst, scaled)          # [N, D]


if __name__ == "__main__":
    torch.manual_seed(0)
    ei = torch.tensor([[0, 1, 1, 2, 3], [1, 0, 2, 3, 2]])
    sampler = WeightedNeighborSampler(ei, torch.rand(5) + 0.5, num_nodes=4)
    block, w = sampler.sample()
    feats = torch.randn(4, 3)
    out = weighted_aggregate(feats, block, w)
    n_e = block.shape[1]
    norm = [0.0] * 4
    for e in range(n_e):
        norm[int(block[1, e])] += float(w[e])
    ref = torch.zeros(4, 3)
    for e in range(n_e):
        s, d = int(block[0, e]), int(block[1, e])
        ref[d] += feats[s] * float(w[e]) / norm[d]
    assert torch.allclose(out, ref, atol=1e-6)
    print("ok")
