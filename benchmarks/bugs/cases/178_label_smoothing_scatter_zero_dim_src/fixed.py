import torch
import torch.nn as nn


class LabelSmoothedTagLoss(nn.Module):
    """Cross-entropy against a label-smoothed target distribution.

    Args:
        n_labels (int): number of tags.
        label_smoothing (float): probability mass spread over the other tags.
    """

    def __init__(self, n_labels, label_smoothing=0.1):
        super().__init__()
        self.n_labels = n_labels
        self.label_smoothing = label_smoothing

    def smoothed_targets(self, targets):
        """
        Args:
            targets (LongTensor): gold tag ids of shape (batch_size, seq_len).

        Returns:
            Tensor: target distributions of shape (batch_size, seq_len, n_labels).
        """
        dist = torch.full((*targets.shape, self.n_labels), self.label_smoothing / (self.n_labels - 1))
        confidence = 1.0 - self.label_smoothing
        return dist.scatter(-1, targets.unsqueeze(-1), confidence)

    def forward(self, logits, targets, mask):
        """
        Args:
            logits (Tensor): tag scores of shape (batch_size, seq_len, n_labels).
            targets (LongTensor): shape (batch_size, seq_len).
            mask (BoolTensor): shape (batch_size, seq_len), True for real tokens.

        Returns:
            Tensor: scalar loss averaged over real tokens.
        """
        log_probs = logits.log_softmax(-1)
        per_token = -(self.smoothed_targets(targets) * log_probs).sum(-1)
        return (per_token * mask).sum() / mask.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    loss_fn = LabelSmoothedTagLoss(n_labels=7, label_smoothing=0.1)
    logits = torch.randn(3, 9, 7)
    targets = torch.randint(0, 7, (3, 9))
    mask = torch.arange(9)[None, :] < torch.tensor([[9], [6], [4]])
    loss = loss_fn(logits, targets, mask)
    lp = logits.log_softmax(-1)
    terms = []
    for b in range(3):
        for t in range(9):
            if mask[b, t]:
                dist = torch.full((7,), 0.1 / 6)
                dist[targets[b, t]] = 0.9
                terms.append(-(dist * lp[b, t]).sum())
    assert torch.allclose(loss, torch.stack(terms).mean(), atol=1e-6)
    print("ok")
