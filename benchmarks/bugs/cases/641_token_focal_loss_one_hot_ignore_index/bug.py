import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    """Multi-class focal loss for token classification.

    Args:
        gamma: focusing parameter.
        ignore_index: target value that does not contribute to the loss.

    Shapes:
        probs: (batch, seq_len, num_classes), softmax probabilities.
        target: (batch, seq_len), class ids, padded positions hold ``ignore_index``.
    """

    def __init__(self, gamma: float = 2.0, ignore_index: int = -100):
        super().__init__()
        self.gamma = gamma
        self.ignore_index = ignore_index

    def _process_target(self, target: torch.Tensor, num_classes: int) -> torch.Tensor:
        """Returns the one-hot target of shape (batch, seq_len, num_classes)."""
        return F.one_hot(target, num_classes=num_classes).float()

    def forward(self, probs: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        num_classes = probs.size(-1)
        mask = target != self.ignore_index
        one_hot = self._process_target(target, num_classes)
        p_t = (probs * one_hot).sum(-1)
        loss = -((1 - p_t) ** self.gamma) * p_t.clamp_min(1e-8).log()
        return (loss * mask).sum() / mask.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, max_length, n_class = 4, 12, 5
    logits = torch.randn(batch_size, max_length, n_class)
    target = torch.randint(0, n_class, (batch_size, max_length))
    target[:, -5:] = -100
    criterion = FocalLoss(gamma=0.7, ignore_index=-100)
    print("focal loss:", criterion(logits.softmax(-1), target).item())
