import torch
import torch.nn as nn


class FocalLoss(nn.Module):
    """Multi-class focal loss.

    Args:
        alpha (list of float): weight of every class, length ``num_classes``.
        gamma (float): focusing parameter; 0 gives weighted cross entropy.

    Shape:
        preds: ``(N, num_classes)`` logits.
        labels: ``(N,)`` class ids.
        output: scalar.
    """

    def __init__(self, alpha, gamma=2.0):
        super().__init__()
        self.alpha = torch.tensor(alpha)
        self.gamma = gamma

    def forward(self, preds, labels):
        log_p = preds.log_softmax(dim=1)
        log_pt = log_p.gather(1, labels.view(-1, 1)).view(-1)
        pt = log_pt.exp()
        alpha = self.alpha.gather(0, labels.view(-1))
        loss = -alpha * (1 - pt) ** self.gamma * log_pt
        return loss.mean()


def focal_reference(preds, labels, alpha, gamma):
    """Per-sample loop: ``preds`` ``(N, C)``, ``labels`` ``(N,)``, ``alpha`` list of ``C`` weights."""
    total = 0.0
    for i in range(preds.size(0)):
        lp = preds[i].log_softmax(-1)[labels[i]]
        total = total - alpha[labels[i]] * (1 - lp.exp()) ** gamma * lp
    return total / preds.size(0)


if __name__ == "__main__":
    torch.manual_seed(0)
    alpha = [0.25, 0.5, 0.75, 1.0]
    criterion = FocalLoss(alpha)
    losses, refs = [], []
    for step in range(3):
        preds = torch.randn(16, 4)
        labels = torch.randint(0, 4, (16,))
        losses.append(criterion(preds, labels).item())
        refs.append(focal_reference(preds, labels, alpha, 2.0).item())
    assert all(abs(a - b) < 1e-5 for a, b in zip(losses, refs))
    print("ok")
