import os

import torch
import torch.nn as nn


def get_rank():
    """Rank of this process in the data-parallel group (0 when not launched distributed)."""
    return int(os.environ.get("RANK", 0))


class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features, out_features):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden_features, out_features)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class FeatureFusionBlock(nn.Module):
    """Unsupervised feature fusion of point-cloud and RGB patch features.

    xyz_feature: (N, xyz_dim) and rgb_feature: (N, rgb_dim) hold the features of the N
    non-empty patches of this process's mini-batch. Each modality is projected into a
    shared (N, out_dim) space and patch i of one modality is contrasted with patch i of
    the other (InfoNCE over the N x N similarity matrix of this mini-batch).
    """

    def __init__(self, xyz_dim, rgb_dim, mlp_ratio=4.0, out_dim=64, T=0.2):
        super().__init__()
        self.xyz_dim = xyz_dim
        self.rgb_dim = rgb_dim
        self.xyz_mlp = Mlp(xyz_dim, int(xyz_dim * mlp_ratio), out_dim)
        self.rgb_mlp = Mlp(rgb_dim, int(rgb_dim * mlp_ratio), out_dim)
        self.T = T

    def contrastive_loss(self, q, k):
        """q, k: (N, out_dim) projected features of the same N patches; returns a scalar."""
        q = nn.functional.normalize(q, dim=1)
        k = nn.functional.normalize(k, dim=1)
        # logits: (N, N), row i compares query patch i with every key patch of this mini-batch
        logits = torch.einsum("nc,mc->nm", [q, k]) / self.T
        N = logits.shape[0]
        labels = torch.arange(N, dtype=torch.long) + N * get_rank()
        return nn.CrossEntropyLoss()(logits, labels) * (2 * self.T)

    def forward(self, xyz_feature, rgb_feature):
        """xyz_feature: (N, xyz_dim), rgb_feature: (N, rgb_dim); returns the fusion loss."""
        q = self.xyz_mlp(xyz_feature)
        k = self.rgb_mlp(rgb_feature)
        return self.contrastive_loss(q, k) + self.contrastive_loss(k, q)


if __name__ == "__main__":
    torch.manual_seed(0)
    # this process is the second worker (rank 1) of a two-GPU job; features are not all-gathered
    os.environ["RANK"] = "1"
    fusion = FeatureFusionBlock(xyz_dim=24, rgb_dim=32)
    xyz_patches = torch.randn(16, 24)
    rgb_patches = torch.randn(16, 32)
    loss = fusion(xyz_patches, rgb_patches)
    print("fusion loss:", loss.item())
