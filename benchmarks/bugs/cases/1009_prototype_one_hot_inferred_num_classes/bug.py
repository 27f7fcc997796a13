import torch
import torch.nn.functional as F


def pseudo_labels(logits):
    """Hard pseudo-labels for unlabeled embeddings.

    Args:
        logits: (N, K) class scores from the current model.
    Returns:
        (N,) int64 class ids in [0, K).
    """
    return logits.argmax(dim=1)


def class_prototypes(emb, labels):
    """Mean embedding of every class.

    Args:
        emb: (N, D) embeddings.
        labels: (N,) class ids.
    Returns:
        (K, D) prototypes, one row per class.
    """
    onehot = F.one_hot(labels).float()
    counts = onehot.sum(0).clamp(min=1).unsqueeze(1)
    return onehot.t() @ emb / counts


def assign(emb, protos):
    return torch.cdist(emb, protos).argmin(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes = 4
    emb = torch.randn(12, 3)
    logits = torch.randn(12, num_classes)
    logits[:, 3] -= 10.0
    labels = pseudo_labels(logits)
    protos = class_prototypes(emb, labels)
    print("prototypes:", protos.shape[0], "classes:", num_classes)
    print("assignments:", assign(emb, protos).tolist())
