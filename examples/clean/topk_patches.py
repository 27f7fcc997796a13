"""Keep the K most salient patches of each image."""
import torch


def keep_salient_patches(patches, scores, k: int):
    """
    Args:
        patches: tensor of shape (B, N, D), the patch embeddings.
        scores: tensor of shape (B, N), one saliency score per patch.
    """
    B, N, D = patches.shape
    idx = scores.topk(k, dim=1).indices  # [B, k]
    return patches.gather(1, idx.unsqueeze(-1).expand(-1, -1, D))


def prototypes_for(labels):
    features = torch.randn(10, 128)  # [num_classes, 128]
    class_idx = labels.view(-1)
    return torch.gather(features, 0, class_idx.unsqueeze(1).expand(-1, 128))
