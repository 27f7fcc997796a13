"""Keep the K most salient patches of each image (token pruning in a vision transformer)."""
import torch


def keep_salient_patches(patches, scores, k: int):
    """
    Args:
        patches: tensor of shape (B, N, D), the patch embeddings.
        scores: tensor of shape (B, N), one saliency score per patch.
    """
    idx = scores.topk(k, dim=1).indices  # [B, k]
    # Bug: the index is [B, k, 1], so only feature 0 of each kept patch is read: expand to D.
    return patches.gather(1, idx.unsqueeze(-1))


def keep_salient_features(patches, scores, k: int):
    """
    Args:
        patches: tensor of shape (B, N, D), the patch embeddings.
        scores: tensor of shape (B, N), one saliency score per patch.
    """
    B, N, D = patches.shape
    idx = scores.topk(k, dim=1).indices
    # Bug: the top-k positions are patch positions (dim 1) but are gathered along the feature dim.
    return patches.gather(2, idx.unsqueeze(-1).expand(-1, -1, D))
