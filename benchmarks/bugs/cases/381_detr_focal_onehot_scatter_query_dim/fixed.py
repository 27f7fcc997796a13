import torch
import torch.nn as nn
import torch.nn.functional as F


def sigmoid_focal_loss(inputs, targets, num_boxes, alpha=0.25, gamma=2.0):
    prob = inputs.sigmoid()
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = prob * targets + (1 - prob) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * loss).mean(1).sum() / num_boxes


class SetCriterion(nn.Module):
    def __init__(self, num_classes, focal_alpha=0.25):
        super().__init__()
        self.num_classes = num_classes
        self.focal_alpha = focal_alpha

    def loss_labels(self, outputs, targets, indices, num_boxes):
        src_logits = outputs["pred_logits"]  # [bs, num_queries, num_classes]
        batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
        src_idx = torch.cat([src for src, _ in indices])
        target_classes_o = torch.cat([t["labels"][J] for t, (_, J) in zip(targets, indices)])
        # [bs, num_queries], unmatched queries get the "no object" class
        target_classes = torch.full(src_logits.shape[:2], self.num_classes, dtype=torch.int64)
        target_classes[batch_idx, src_idx] = target_classes_o

        # [bs, num_queries, num_classes + 1]
        target_classes_onehot = torch.zeros(
            [src_logits.shape[0], src_logits.shape[1], src_logits.shape[2] + 1], dtype=src_logits.dtype
        )
        target_classes_onehot.scatter_(2, target_classes.unsqueeze(-1), 1)
        target_classes_onehot = target_classes_onehot[:, :, :-1]
        loss_ce = sigmoid_focal_loss(src_logits, target_classes_onehot, num_boxes, alpha=self.focal_alpha)
        return {"loss_ce": loss_ce * src_logits.shape[1]}, target_classes_onehot


if __name__ == "__main__":
    torch.manual_seed(0)
    criterion = SetCriterion(num_classes=4)
    outputs = {"pred_logits": torch.randn(2, 12, 4)}
    targets = [{"labels": torch.tensor([1, 3])}, {"labels": torch.tensor([0, 2, 2])}]
    indices = [(torch.tensor([5, 9]), torch.tensor([0, 1])), (torch.tensor([0, 3, 7]), torch.tensor([0, 1, 2]))]
    losses, onehot = criterion.loss_labels(outputs, targets, indices, num_boxes=5)
    ref = torch.zeros(2, 12, 4)
    for b, (src, tgt) in enumerate(indices):
        for q, j in zip(src.tolist(), tgt.tolist()):
            ref[b, q, targets[b]["labels"][j]] = 1.0
    ref_loss = sigmoid_focal_loss(outputs["pred_logits"], ref, 5) * 12
    assert torch.equal(onehot, ref)
    assert torch.allclose(losses["loss_ce"], ref_loss)
    print("ok")
