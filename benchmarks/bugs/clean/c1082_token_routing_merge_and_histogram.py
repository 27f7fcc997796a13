import torch
import torch.nn as nn


class TopKTokenMixer(nn.Module):
    """Route the top-k tokens of each sequence through an MLP and merge them back."""

    def __init__(self, d, k):
        super().__init__()
        self.k = k
        self.score = nn.Linear(d, 1)
        self.mlp = nn.Sequential(nn.Linear(d, d), nn.Tanh())

    def forward(self, x):
        # x: [B, S, D]
        scores = self.score(x).squeeze(-1)                          # [B, S]
        top = scores.topk(self.k, dim=1).indices                    # [B, K]
        idx = top.unsqueeze(-1).expand(-1, -1, x.size(-1))          # [B, K, D]
        picked = x.gather(1, idx)                                   # [B, K, D]
        delta = self.mlp(picked)                                    # residual update only
        return x.scatter_add(1, idx, delta), top


def routing_histogram(top, seq_len):
    # top: [B, K] -> how often each position was routed, duplicates across the batch accumulate
    counts = torch.zeros(seq_len)
    counts.index_put_((top.reshape(-1),), torch.ones(top.numel()), accumulate=True)
    return counts


def position_max_score(scores, top):
    # per position: highest router score it received over the batch, -inf if never routed
    out = torch.full((scores.size(1),), float("-inf"))
    vals = scores.gather(1, top).reshape(-1)
    return out.scatter_reduce(0, top.reshape(-1), vals, reduce="amax", include_self=False)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, S, D, K = 3, 7, 5, 3
    mixer = TopKTokenMixer(D, K)
    x = torch.randn(B, S, D)
    with torch.no_grad():
        y, top = mixer(x)
        scores = mixer.score(x).squeeze(-1)
        ref = x.clone()
        for b in range(B):
            for j in range(K):
                t = int(top[b, j])
                ref[b, t] = x[b, t] + mixer.mlp(x[b, t])
        assert torch.allclose(y, ref, atol=1e-6)

        hist = routing_histogram(top, S)
        ref_hist = [0.0] * S
        for b in range(B):
            for j in range(K):
                ref_hist[int(top[b, j])] += 1.0
        assert hist.tolist() == ref_hist

        best = position_max_score(scores, top)
        for t in range(S):
            vals = [float(scores[b, t]) for b in range(B) for j in range(K) if int(top[b, j]) == t]
            if vals:
                assert abs(float(best[t]) - max(vals)) < 1e-6
            else:
                assert best[t] == float("-inf")
    print("ok")
