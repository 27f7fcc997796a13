import torch
import torch.nn.functional as F


def compute_class_loss(anchor_matches, class_pred_logits):
    """
    :param anchor_matches: (n_anchors). [-1, 0, class_id] for negative, neutral, and positive matched anchors.
    :param class_pred_logits: (n_anchors, n_classes). logits from classifier sub-network.
    :return: loss: torch tensor.
    """
    pos_indices = torch.nonzero(anchor_matches > 0).squeeze(1)
    neg_indices = torch.nonzero(anchor_matches == -1).squeeze(1)
    targets = torch.cat([anchor_matches[pos_indices], torch.zeros_like(neg_indices)])
    logits = torch.cat([class_pred_logits[pos_indices], class_pred_logits[neg_indices]])
    return F.cross_entropy(logits, targets.long())


def compute_bbox_loss(target_deltas, pred_deltas, anchor_matches):
    """
    :param target_deltas: (n_positive_anchors, (dy, dx, (dz), log(dh), log(dw), (log(dd)))), stored in anchor order.
    :param pred_deltas: (n_anchors, (dy, dx, (dz), log(dh), log(dw), (log(dd)))).
    :param anchor_matches: (n_anchors). [-1, 0, class_id] for negative, neutral, and positive matched anchors.
    :return: loss: torch tensor.
    """
    if 0 not in torch.nonzero(anchor_matches > 0).size():
        indices = torch.nonzero(anchor_matches > 0).squeeze(1)
        pred_deltas = pred_deltas[indices]
        target_deltas = target_deltas[:pred_deltas.size()[0], :]
        loss = F.smooth_l1_loss(pred_deltas, target_deltas)
    else:
        loss = torch.tensor([0.0])
    return loss


def match_anchors(n_anchors, n_classes, n_pos):
    """
    :return: anchor_matches (n_anchors) with class ids for positives, -1 for negatives, 0 for neutral anchors.
    """
    anchor_matches = torch.full((n_anchors,), -1, dtype=torch.long)
    anchor_matches[torch.randperm(n_anchors)[:n_anchors // 4]] = 0
    pos = torch.randperm(n_anchors)[:n_pos]
    anchor_matches[pos] = torch.randint(1, n_classes, (n_pos,))
    return anchor_matches


if __name__ == "__main__":
    torch.manual_seed(0)
    anchor_matches = match_anchors(n_anchors=200, n_classes=4, n_pos=24)
    n_pos = int((anchor_matches > 0).sum())
    target_deltas = torch.randn(n_pos, 6)
    pred_deltas = torch.randn(200, 6)
    loss = compute_bbox_loss(target_deltas, pred_deltas, anchor_matches)
    pos = [i for i, m in enumerate(anchor_matches.tolist()) if m > 0]
    ref = sum(F.smooth_l1_loss(pred_deltas[a], target_deltas[k], reduction="sum") for k, a in enumerate(pos)) / (len(pos) * 6)
    assert torch.allclose(loss, ref, atol=1e-6)
    print("ok")
