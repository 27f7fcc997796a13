import torch
import torch.nn.functional as F
from torch import nn


class FocalLoss(nn.Module):
    """Multi-class focal loss (Lin et al. 2017) with an ignore index.

    Args:
        gamma (`float`): focusing parameter.
        ignore_index (`int`, defaults to -100): target value that does not contribute to the loss.

    Inputs:
        probs (`torch.FloatTensor` of shape `(batch_size, seq_len, num_classes)`): softmax probabilities.
        target (`torch.LongTensor` of shape `(batch_size, seq_len)`): class ids, or `ignore_index` on padding.

    Returns:
        `torch.FloatTensor` of shape `()`: mean focal loss over the non-ignored positions.
    """

    def __init__(self, gamma=2.0, ignore_index=-100, eps=1e-12):
        super().__init__()
        self.gamma = gamma
        self.ignore_index = ignore_index
        self.eps = eps

    def forward(self, probs, target):
        num_classes = probs.shape[-1]
        mask = target != self.ignore_index
        safe_target = target.masked_fill(~mask, 0)
        target_one_hot = F.one_hot(safe_target, num_classes=num_classes).to(probs.dtype)
        pt = (target_one_hot * probs).sum(dim=-1)
        loss = -((1 - pt) ** self.gamma) * torch.log(pt + self.eps)
        return (loss * mask).sum() / mask.sum()


def collate(batch, pad_label=-100):
    """Pads per-token labels of variable length with `pad_label`."""
    max_len = max(len(labels) for _, labels in batch)
    logits = torch.stack([x for x, _ in batch])
    labels = torch.full((len(batch), max_len), pad_label, dtype=torch.long)
    for i, (_, lab) in enumerate(batch):
        labels[i, : len(lab)] = torch.tensor(lab)
    return logits, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    batch = [(torch.randn(6, 5), [0, 3, 1, 4]), (torch.randn(6, 5), [2, 2, 0, 1, 3, 4])]
    logits, labels = collate(batch)
    criterion = FocalLoss(gamma=2.0)
    probs = logits.softmax(-1)[:, : labels.shape[1]]
    loss = criterion(probs, labels)
    total, count = 0.0, 0
    for b in range(probs.shape[0]):
        for t in range(labels.shape[1]):
            y = labels[b, t].item()
            if y == -100:
                continue
            pt = probs[b, t, y].item()
            total += -((1 - pt) ** 2.0) * torch.log(torch.tensor(pt + 1e-12)).item()
            count += 1
    assert abs(loss.item() - total / count) < 1e-5, (loss.item(), total / count)
    print("ok")
