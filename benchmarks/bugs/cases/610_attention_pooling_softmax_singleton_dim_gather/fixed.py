import torch
import torch.nn as nn


class AttentionPooling(nn.Module):
    """Attention pooling over a window of past observations (LAMA-style actor).

    Args:
        obs_dim: size of one observation embedding.
        top_k: number of most-attended observations kept for the policy head.
    """

    def __init__(self, obs_dim, top_k=2):
        super().__init__()
        self.score = nn.Linear(obs_dim, 1)
        self.top_k = top_k

    def forward(self, obs):
        """
        Args:
            obs: (batch, history, obs_dim) observation embeddings.
        Returns:
            pooled: (batch, obs_dim) attention-weighted average.
            selected: (batch, top_k, obs_dim) the top_k most-attended observations.
            weights: (batch, history, 1) attention weights over the history.
        """
        weights = torch.softmax(self.score(obs), dim=1)
        pooled = (weights * obs).sum(dim=1)
        top = weights.squeeze(-1).topk(self.top_k, dim=1).indices
        selected = obs.gather(1, top.unsqueeze(-1).expand(-1, -1, obs.size(-1)))
        return pooled, selected, weights


if __name__ == "__main__":
    torch.manual_seed(0)
    pool = AttentionPooling(obs_dim=6, top_k=2)
    obs = torch.randn(3, 4, 6)
    pooled, selected, weights = pool(obs)
    with torch.no_grad():
        for b in range(3):
            s = [pool.score(obs[b, t]).item() for t in range(4)]
            z = sum(torch.tensor(v).exp().item() for v in s)
            w = [torch.tensor(v).exp().item() / z for v in s]
            assert abs(sum(w) - 1) < 1e-5
            ref = sum(w[t] * obs[b, t] for t in range(4))
            assert torch.allclose(pooled[b], ref, atol=1e-5)
            order = sorted(range(4), key=lambda t: -w[t])[:2]
            for j, t in enumerate(order):
                assert torch.equal(selected[b, j], obs[b, t])
    print("ok")
