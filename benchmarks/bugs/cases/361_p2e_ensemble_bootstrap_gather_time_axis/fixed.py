import torch
import torch.nn as nn


class OneStepModel(nn.Module):
    """Ensemble member: predicts the next observation embedding from (belief, action)."""

    def __init__(self, belief_size, action_size, embed_size, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(belief_size + action_size, hidden), nn.ELU(),
                                 nn.Linear(hidden, embed_size))

    def forward(self, belief, action):
        return self.net(torch.cat([belief, action], dim=-1))


def bootstrap_views(beliefs, actions, embeds, sample_idx):
    # beliefs: (T, B, Hb)  actions: (T, B, A)  embeds: (T, B, E)  -- time-major chunks from the buffer
    # sample_idx: (B,) sequence ids drawn with replacement from range(batch_size)
    n = sample_idx.size(0)
    idx = sample_idx.view(1, n, 1)
    s = torch.gather(beliefs, 1, idx.expand(beliefs.size(0), n, beliefs.size(2)))
    a = torch.gather(actions, 1, idx.expand(actions.size(0), n, actions.size(2)))
    e = torch.gather(embeds, 1, idx.expand(embeds.size(0), n, embeds.size(2)))
    return s, a, e  # (T, B, *) each


def ensemble_loss(models, beliefs, actions, embeds, samples):
    # samples: (num_models, B) bootstrap indices, one row per ensemble member
    total = 0.0
    for member, sample_idx in zip(models, samples):
        s, a, e = bootstrap_views(beliefs, actions, embeds, sample_idx)
        total = total + ((member(s, a) - e) ** 2).mean()
    return total / len(models)


if __name__ == "__main__":
    torch.manual_seed(0)
    T, B, Hb, A, E = 12, 12, 10, 3, 6  # chunk_size == batch_size, as in the default config
    beliefs, actions, embeds = torch.randn(T, B, Hb), torch.randn(T, B, A), torch.randn(T, B, E)
    models = [OneStepModel(Hb, A, E) for _ in range(3)]
    samples = torch.randint(0, B, (3, B))
    for k in range(3):
        s, a, e = bootstrap_views(beliefs, actions, embeds, samples[k])
        for t in range(T):
            for j in range(B):
                src_seq = samples[k, j].item()
                assert torch.equal(a[t, j], actions[t, src_seq])
                assert torch.equal(s[t, j], beliefs[t, src_seq])
                assert torch.equal(e[t, j], embeds[t, src_seq])
    loss = ensemble_loss(models, beliefs, actions, embeds, samples)
    print("ok", round(loss.item(), 4))
