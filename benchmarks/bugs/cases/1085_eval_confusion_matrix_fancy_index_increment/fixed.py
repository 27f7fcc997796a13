import torch


def calculate_confusion_matrix(pred, target):
    # pred: (N, C) scores, target: (N,) class ids
    num_classes = pred.size(1)
    _, pred_label = pred.topk(1, dim=1)                       # (N, 1)
    pred_label = pred_label.view(-1)                          # (N,)
    target_label = target.view(-1)                            # (N,)
    confusion_matrix = torch.zeros(num_classes, num_classes)  # (C, C) rows = gt, cols = pred
    with torch.no_grad():
        ones = torch.ones_like(target_label, dtype=confusion_matrix.dtype)
        confusion_matrix.index_put_((target_label.long(), pred_label.long()), ones, accumulate=True)
    return confusion_matrix


def precision_recall(pred, target):
    cm = calculate_confusion_matrix(pred, target)            # (C, C)
    tp = cm.diag()                                           # (C,)
    precision = tp / cm.sum(0).clamp(min=1)
    recall = tp / cm.sum(1).clamp(min=1)
    return precision, recall, cm


if __name__ == "__main__":
    torch.manual_seed(0)
    target = torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2, 1])     # (10,)
    scores = torch.randn(10, 3)                              # (10, 3)
    scores[torch.arange(10), target] += 1.5
    precision, recall, cm = precision_recall(scores, target)
    ref = torch.zeros(3, 3)
    for t, p in zip(target.tolist(), scores.argmax(1).tolist()):
        ref[t, p] += 1
    assert torch.equal(cm, ref)
    assert int(cm.sum().item()) == target.numel()
    print("ok")
