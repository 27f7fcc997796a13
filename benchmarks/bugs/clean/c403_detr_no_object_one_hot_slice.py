"""Sigmoid focal classification loss of a DETR-style detector.

Unmatched queries get the 'no object' class id == num_classes; the one-hot target is built with one
extra column so that id is in range for scatter_, and that column is dropped afterwards.
"""
import torch
import torch.nn.functional as F


def build_target_classes(num_queries, num_classes, matched, batch_size):
    # matched: list of (query_idx [K], class_id [K]) per image
    target_classes = torch.full((batch_size, num_queries), num_classes, dtype=torch.long)  # [B, Q]
    for b, (q_idx, cls) in enumerate(matched):
        target_classes[b, q_idx] = cls
    return target_classes


def focal_targets(logits, target_classes):
    # logits: [B, Q, C], target_classes: [B, Q] in [0, C] (C = no object)
    B, Q, C = logits.shape
    onehot = torch.zeros(B, Q, C + 1, dtype=logits.dtype)  # [B, Q, C + 1]
    onehot.scatter_(2, target_classes.unsqueeze(-1), 1)  # index [B, Q, 1]
    return onehot[:, :, :-1]  # [B, Q, C]


def sigmoid_focal_loss(logits, targets, alpha=0.25, gamma=2.0):
    prob = logits.sigmoid()
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = prob * targets + (1 - prob) * (1 - targets)
    loss = ce * ((1 - p_t) ** gamma)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * loss).mean(1).sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    B, Q, C = 2, 6, 4
    logits = torch.randn(B, Q, C)
    matched = [(torch.tensor([0, 3]), torch.tensor([2, 1])), (torch.tensor([5]), torch.tensor([3]))]
    target_classes = build_target_classes(Q, C, matched, B)
    targets = focal_targets(logits, target_classes)
    for b in range(B):
        for q in range(Q):
            for c in range(C):
                assert targets[b, q, c].item() == float(target_classes[b, q].item() == c)
    assert targets.sum().item() == 3
    loss = sigmoid_focal_loss(logits, targets)
    assert torch.isfinite(loss)
    print("ok")
