import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class AffinityLoss(nn.Module):
    """Affinity loss of an affinity-VAE: latent cosine similarity should match a class affinity table.

    Args:
        lookup: (n_classes, n_classes) affinity between classes, in [-1, 1].
    """

    def __init__(self, lookup: torch.Tensor):
        super().__init__()
        self.register_buffer("lookup", lookup)

    def forward(self, y_true: torch.Tensor, y_pred: torch.Tensor) -> torch.Tensor:
        """
        Args:
            y_true: (B,) class id of every sample in the batch.
            y_pred: (B, latent_dims) latent means.
        Returns:
            scalar loss.
        """
        pairs = torch.combinations(torch.arange(y_true.shape[0]), r=2)  # (P, 2)
        latent_similarity = F.cosine_similarity(y_pred[pairs[:, 0]], y_pred[pairs[:, 1]], dim=-1)
        target_similarity = self.lookup[y_true[pairs[:, 0]], y_true[pairs[:, 1]]]
        return F.l1_loss(latent_similarity, target_similarity)


def collate(samples):
    """samples: list of (volume (D, D, D) ndarray, class id) -> (B, 1, D, D, D), (B,)"""
    volumes = torch.from_numpy(np.stack([s[0] for s in samples])).unsqueeze(1)
    labels = torch.from_numpy(np.array([s[1] for s in samples], dtype=np.float32))
    return volumes, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    lookup = torch.tensor([[1.0, 0.2, -0.5], [0.2, 1.0, 0.1], [-0.5, 0.1, 1.0]])
    samples = [(rng.standard_normal((4, 4, 4)).astype(np.float32), c) for c in [0, 2, 1, 2, 0]]
    volumes, labels = collate(samples)
    encoder = nn.Sequential(nn.Flatten(), nn.Linear(64, 8))
    mu = encoder(volumes)
    loss = AffinityLoss(lookup)(labels, mu)
    print("affinity loss:", loss.item())
