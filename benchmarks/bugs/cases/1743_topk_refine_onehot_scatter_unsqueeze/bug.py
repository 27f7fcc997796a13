import torch
from torch import Tensor


def select_topk_onehot(preds: Tensor, top_k: int) -> Tensor:
    """Binary mask of the top-k classes.

    Args:
        preds: scores of shape ``(N, C, ...)``

    Returns:
        int tensor of shape ``(N, ..., C)`` (class axis moved last)
    """
    idx = preds.topk(top_k, dim=1).indices
    mask = torch.zeros_like(preds, dtype=torch.int32).scatter_(1, idx, 1)
    return torch.movedim(mask, 1, -1)


def refine_topk_onehot(preds: Tensor, preds_oh: Tensor, target: Tensor, top_k: int) -> Tensor:
    """Keep a single predicted class per sample: the target if it is among the top-k, else the top-1.

    Args:
        preds: scores of shape ``(N, C, ...)``
        preds_oh: top-k one-hot of shape ``(N, ..., C)``
        target: class ids of shape ``(N, ...)``

    Returns:
        one-hot tensor of shape ``(N, ..., C)``
    """
    ranked = preds.topk(top_k, dim=1).indices
    hit = (ranked == target.unsqueeze(1)).any(dim=1)
    chosen = torch.where(hit, target, ranked[:, 0])
    refined = torch.zeros_like(preds_oh, dtype=torch.int32)
    return refined.scatter_(-1, chosen.unsqueeze(1), 1)


def multiclass_topk_accuracy(preds: Tensor, target: Tensor, num_classes: int, top_k: int) -> Tensor:
    """Micro top-k accuracy.

    Args:
        preds: scores of shape ``(N, C, ...)``
        target: class ids of shape ``(N, ...)``
    """
    preds_oh = refine_topk_onehot(preds, select_topk_onehot(preds, top_k), target, top_k)
    target_oh = torch.nn.functional.one_hot(target, num_classes)
    tp = (preds_oh * target_oh).sum()
    return tp / target.numel()


if __name__ == "__main__":
    torch.manual_seed(42)
    preds = torch.rand(2, 10, 50)
    target = torch.randint(10, (2, 50))
    acc = multiclass_topk_accuracy(preds, target, num_classes=10, top_k=5)
    hits = 0
    for n in range(2):
        for x in range(50):
            hits += int(target[n, x] in preds[n, :, x].topk(5).indices)
    print("top-5 accuracy:", acc.item(), "reference:", hits / 100)
