import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class SAGEConv(nn.Module):
    def __init__(self, in_feats: int, out_feats: int):
        super().__init__()
        self.fc_self = nn.Linear(in_feats, out_feats)
        self.fc_neigh = nn.Linear(in_feats, out_feats)

    def forward(
        self,
        h_src: Float[Tensor, "n_src d"],
        edges: Int[Tensor, "2 e"],
        num_dst: int,
    ) -> Float[Tensor, "n_dst d_out"]:
        src, dst = edges
        agg = torch.zeros(num_dst, h_src.size(1)).index_add_(0, dst, h_src.index_select(0, src))
        deg = torch.zeros(num_dst).index_add_(0, dst, torch.ones(dst.numel())).clamp(min=1)
        # destination nodes are the first num_dst source nodes (DGL block convention)
        return self.fc_self(h_src[:num_dst]) + self.fc_neigh(agg / deg.unsqueeze(1))


class SAGE(nn.Module):
    def __init__(self, in_feats: int, hidden: int, n_classes: int):
        super().__init__()
        self.layers = nn.ModuleList([SAGEConv(in_feats, hidden), SAGEConv(hidden, n_classes)])

    def forward(self, blocks: list, x: Float[Tensor, "n_input d"]) -> Float[Tensor, "n_seeds c"]:
        h = x
        for i, (layer, (edges, num_dst)) in enumerate(zip(self.layers, blocks)):
            h = layer(h, edges, num_dst)
            if i < len(self.layers) - 1:
                h = F.relu(h)
        return h


def sample_blocks(seeds: Int[Tensor, "s"], fanout: int, num_nodes: int, gen: torch.Generator):
    """Toy uniform neighbour sampler returning blocks (edges in local ids, num_dst) and input node ids."""
    blocks, frontier = [], seeds
    for _ in range(2):
        nbrs = torch.randint(0, num_nodes, (frontier.numel(), fanout), generator=gen)
        all_ids, inverse = torch.unique(torch.cat([frontier, nbrs.flatten()]), return_inverse=True)
        order = torch.cat([frontier, all_ids[~torch.isin(all_ids, frontier)]])
        remap = torch.empty(num_nodes, dtype=torch.long)
        remap[order] = torch.arange(order.numel())
        dst = torch.arange(frontier.numel()).repeat_interleave(fanout)
        src = remap[nbrs.flatten()]
        blocks.insert(0, (torch.stack([src, dst]), frontier.numel()))
        frontier = order
    return blocks, frontier


def train_step(model, opt, node_feat, node_label, seeds, gen):
    blocks, input_nodes = sample_blocks(seeds, fanout=4, num_nodes=node_feat.size(0), gen=gen)
    x = node_feat[input_nodes]
    y = node_label[seeds]
    y_hat = model(blocks, x)
    loss = F.cross_entropy(y_hat, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    num_nodes, n_classes = 200, 7
    node_feat = torch.randn(num_nodes, 16)
    # labels come from the on-disk dataset as int32
    node_label = torch.from_numpy(np.random.default_rng(0).integers(0, n_classes, num_nodes).astype(np.int32))
    model = SAGE(16, 32, n_classes)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    gen = torch.Generator().manual_seed(0)
    for step in range(3):
        seeds = torch.randperm(num_nodes, generator=gen)[:32]
        print("loss", train_step(model, opt, node_feat, node_label, seeds, gen))
