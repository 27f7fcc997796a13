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
    idx = sample_idx.view(n, 1, 1)
    s = torch.gather(beliefs, 0, idx.expand(n, beliefs.size(1), beliefs.size(2)))
    a = torch.gather(actions, 0, idx.expand(n, actions.size(1), actions.size(2)))
    e = torch.gather(embeds, 0, idx.expand(n, embeds.size(1), embeds.size(2)))
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
    s, a, e = bootstrap_views(beliefs, actions, embeds, samples[0])
    ref = torch.stack([actions[:, samples[0, j]] for j in range(B)], dim=1)  # sequence j of the view
    print("loss:", ensemble_loss(models, beliefs, actions, embeds, samples).item())
    print("max |actions view - resampled sequences|:", (a - ref).abs().max().item())
