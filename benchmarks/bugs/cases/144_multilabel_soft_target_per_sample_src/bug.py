import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def soft_multilabel_targets(
    label_idx: Int[Tensor, "batch max_labels"],
    confidence: Float[Tensor, "batch 1"],
    num_classes: int,
    floor: float = 0.0,
) -> Float[Tensor, "batch classes"]:
    """Multi-hot targets whose positives carry the annotator confidence of each sample.

    Samples with fewer labels repeat their last label in `label_idx`.
    """
    targets = torch.full((label_idx.shape[0], num_classes), floor)
    targets.scatter_(1, label_idx, confidence)
    return targets


def tagging_loss(
    logits: Float[Tensor, "batch classes"],
    label_idx: Int[Tensor, "batch max_labels"],
    confidence: Float[Tensor, "batch 1"],
) -> Float[Tensor, ""]:
    targets = soft_multilabel_targets(label_idx, confidence, logits.shape[-1], floor=0.02)
    return F.binary_cross_entropy_with_logits(logits, targets)


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(4, 10)
    label_idx = torch.tensor([[1, 4, 4], [0, 2, 7], [9, 9, 9], [3, 5, 6]])
    confidence = torch.tensor([[0.9], [0.7], [1.0], [0.8]])
    print("loss:", tagging_loss(logits, label_idx, confidence).item())
