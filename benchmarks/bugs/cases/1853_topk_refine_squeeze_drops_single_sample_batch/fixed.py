"""Multiclass stat scores with top-k predictions (torchmetrics-style functional helpers)."""
import torch
from torch import Tensor


def _refine_preds_oh(preds: Tensor, preds_oh: Tensor, target: Tensor, top_k: int) -> Tensor:
    """Replace the top-k one-hot by the target class when the target is among the top-k, else the top-1 class.

    Args:
        preds: logits or probabilities of shape ``(N, C)``
        preds_oh: one-hot encoded top-k predictions of shape ``(N, C)``
        target: class indices of shape ``(N,)``
        top_k: number of highest scoring classes considered

    Returns:
        One-hot predictions of shape ``(N, C)`` with a single 1 per sample.
    """
    preds = preds.reshape(preds.shape[0], -1)
    target = target.reshape(-1)
    top_k_indices = torch.topk(preds, k=top_k, dim=1).indices
    top_1_indices = top_k_indices[:, 0]
    target_in_topk = torch.any(top_k_indices == target.unsqueeze(1), dim=1)
    result = torch.where(target_in_topk, target, top_1_indices)
    return torch.zeros_like(preds_oh, dtype=torch.int32).scatter_(-1, result.unsqueeze(1), 1)


def multiclass_stat_scores(preds: Tensor, target: Tensor, num_classes: int, top_k: int = 1) -> Tensor:
    """Per-class true positives, false positives and false negatives.

    Args:
        preds: logits of shape ``(N, C)``
        target: class indices of shape ``(N,)``

    Returns:
        Tensor of shape ``(3, C)`` holding tp, fp and fn.
    """
    topk = preds.topk(top_k, dim=1).indices
    preds_oh = torch.zeros_like(preds, dtype=torch.int32).scatter_(1, topk, 1)
    if top_k > 1:
        preds_oh = _refine_preds_oh(preds, preds_oh, target, top_k)
    target_oh = torch.nn.functional.one_hot(target, num_classes).int()
    tp = (preds_oh * target_oh).sum(0)
    fp = (preds_oh * (1 - target_oh)).sum(0)
    fn = ((1 - preds_oh) * target_oh).sum(0)
    return torch.stack([tp, fp, fn])


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes = 5
    logits = torch.randn(6, num_classes)
    labels = torch.randint(0, num_classes, (6,))
    def reference(p, t):
        out = torch.zeros(3, num_classes, dtype=torch.int32)
        for n in range(p.shape[0]):
            ranked = sorted(range(num_classes), key=lambda c: -float(p[n, c]))[:2]
            pred = int(t[n]) if int(t[n]) in ranked else ranked[0]
            if pred == int(t[n]):
                out[0, pred] += 1
            else:
                out[1, pred] += 1
                out[2, int(t[n])] += 1
        return out

    assert torch.equal(multiclass_stat_scores(logits, labels, num_classes, top_k=2), reference(logits, labels))
    # the validation loop evaluates the last, single-sample batch too
    single = multiclass_stat_scores(logits[-1:], labels[-1:], num_classes, top_k=2)
    assert torch.equal(single, reference(logits[-1:], labels[-1:]))
    print("ok")
