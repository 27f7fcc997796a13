import math

import torch
import torch.nn as nn


def segment_softmax(scores, segment_ids, num_segments):
    # scores: (N,), segment_ids: (N,) with values in [0, num_segments)
    seg_max = torch.full((num_segments,), float("-inf")).scatter_reduce(
        0, segment_ids, scores, reduce="amax", include_self=False
    )
    exp = (scores - seg_max.index_select(0, segment_ids)).exp()
    denom = torch.zeros(num_segments).index_add_(0, segment_ids, exp)
    return exp / denom.index_select(0, segment_ids)


class AttentionReadout(nn.Module):
    def __init__(self, in_dim, num_classes):
        super().__init__()
        self.gate = nn.Linear(in_dim, 1)
        self.classifier = nn.Linear(in_dim, num_classes)

    def forward(self, node_feats, batch, num_graphs):
        # node_feats: (N, F), batch: (N,) graph id of every node
        alpha = segment_softmax(self.gate(node_feats).squeeze(-1), batch, num_graphs)  # (N,)
        pooled = torch.zeros(num_graphs, node_feats.size(1))
        index = batch.unsqueeze(-1).expand_as(node_feats)  # (N, F)
        pooled.scatter_add_(0, index, alpha.unsqueeze(-1) * node_feats)  # (G, F)
        return self.classifier(pooled), pooled, alpha


def graph_nll(logits, y):
    # logits: (G, C), y: (G,)
    log_probs = logits.log_softmax(dim=-1)
    return -log_probs.gather(1, y.unsqueeze(1)).squeeze(1)  # (G,)


if __name__ == "__main__":
    torch.manual_seed(0)
    sizes = [4, 1, 6, 3]
    num_graphs = len(sizes) + 1  # the last graph of the batch has no nodes
    batch = torch.repeat_interleave(torch.arange(len(sizes)), torch.tensor(sizes))
    node_feats = torch.randn(batch.numel(), 8)
    y = torch.tensor([0, 2, 1, 2, 0])
    model = AttentionReadout(8, 3)
    with torch.no_grad():
        logits, pooled, alpha = model(node_feats, batch, num_graphs)
        nll = graph_nll(logits, y)

        gate = model.gate(node_feats).squeeze(-1).tolist()
        for g in range(num_graphs):
            members = [i for i in range(batch.numel()) if batch[i].item() == g]
            if not members:
                assert torch.all(pooled[g] == 0)
                continue
            m = max(gate[i] for i in members)
            z = sum(math.exp(gate[i] - m) for i in members)
            ref_pool = torch.zeros(8)
            for i in members:
                a = math.exp(gate[i] - m) / z
                assert abs(alpha[i].item() - a) < 1e-5
                ref_pool += a * node_feats[i]
            assert torch.allclose(pooled[g], ref_pool, atol=1e-5)
        for g in range(num_graphs):
            ref_nll = -torch.log_softmax(logits[g], dim=0)[y[g]]
            assert torch.allclose(nll[g], ref_nll)
    print("ok")
