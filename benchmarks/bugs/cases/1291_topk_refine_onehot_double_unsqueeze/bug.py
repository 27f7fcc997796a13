import torch
from torch import Tensor


def select_topk(prob_tensor: Tensor, topk: int = 1, dim: int = 1) -> Tensor:
    """Convert a probability tensor to a binary tensor by selecting the top-k entries.

    Args:
        prob_tensor: float tensor of shape ``(N, C)``
        topk: number of highest entries to turn into 1s
        dim: class dimension

    Returns:
        int tensor of shape ``(N, C)`` with ``topk`` ones per row
    """
    zeros = torch.zeros_like(prob_tensor, dtype=torch.int32)
    return zeros.scatter(dim, prob_tensor.topk(k=topk, dim=dim).indices, 1)


def _refine_preds_oh(preds: Tensor, preds_oh: Tensor, target: Tensor, top_k: int) -> Tensor:
    """Replace the top-k one-hot by the target one-hot when the target is inside the top-k.

    Args:
        preds: probabilities of shape ``(N, C)``
        preds_oh: top-k one-hot predictions of shape ``(N, C)``
        target: class indices of shape ``(N,)``
        top_k: number of top predictions to consider

    Returns:
        one-hot tensor of shape ``(N, C)``
    """
    top_k_indices = torch.topk(preds, k=top_k, dim=1).indices
    top_1_indices = top_k_indices[:, 0]
    target_in_topk = torch.any(top_k_indices == target.unsqueeze(1), dim=1)
    result = torch.where(target_in_topk, target, top_1_indices)
    return torch.zeros_like(preds_oh, dtype=torch.int32).scatter_(-1, result.unsqueeze(1).unsqueeze(1), 1)


def multiclass_topk_stat_scores(preds: Tensor, target: Tensor, num_classes: int, top_k: int):
    """Per-class tp, fp, fn for ``preds`` of shape ``(N, C)`` and ``target`` of shape ``(N,)``."""
    preds_oh = select_topk(preds, topk=top_k, dim=1)
    preds_oh = _refine_preds_oh(preds, preds_oh, target, top_k)
    target_oh = torch.nn.functional.one_hot(target, num_classes).int()
    tp = (preds_oh * target_oh).sum(0)
    fp = (preds_oh * (1 - target_oh)).sum(0)
    fn = ((1 - preds_oh) * target_oh).sum(0)
    return tp, fp, fn


if __name__ == "__main__":
    torch.manual_seed(42)
    preds = torch.rand(64, 10).softmax(-1)
    target = torch.randint(10, (64,))
    tp, fp, fn = multiclass_topk_stat_scores(preds, target, num_classes=10, top_k=3)
    hits = 0
    for i in range(64):
        top = sorted(range(10), key=lambda c: -preds[i, c].item())[:3]
        hits += int(target[i].item() in top)
    assert tp.sum().item() == hits
    print("ok")
