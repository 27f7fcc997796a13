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
        weights = torch.softmax(self.score(obs), dim=2)
        pooled = (weights * obs).sum(dim=1)
        top = weights.squeeze(-1).topk(self.top_k, dim=1).indices
        selected = obs.gather(1, top.unsqueeze(-1).expand(-1, -1, obs.size(-1)))
        return pooled, selected, weights


if __name__ == "__main__":
    torch.manual_seed(0)
    pool = AttentionPooling(obs_dim=6, top_k=2)
    obs = torch.randn(3, 4, 6)
    pooled, selected, weights = pool(obs)
    print("weights:", weights.squeeze(-1)[0].tolist())
    print("selected history positions:", weights.squeeze(-1).topk(2, dim=1).indices.tolist())
    print("pooled is the plain sum over history:", torch.allclose(pooled, obs.sum(1)))
