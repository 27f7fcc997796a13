import torch
import torch.nn as nn
import torch.nn.functional as F


def box_cxcywh_to_xyxy(boxes):
    cx, cy, w, h = boxes.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)


@torch.no_grad()
def greedy_matcher(pred_logits, pred_boxes, targets, cost_class=1.0, cost_bbox=5.0):
    # pred_logits: [B, Q, C + 1], pred_boxes: [B, Q, 4]; one (query, target) pair per target, queries unique
    indices = []
    for b, tgt in enumerate(targets):
        prob = pred_logits[b].softmax(-1)  # [Q, C + 1]
        cost = -cost_class * prob[:, tgt["labels"]] + cost_bbox * torch.cdist(pred_boxes[b], tgt["boxes"], p=1)  # [Q, T]
        src, dst = [], []
        for _ in range(len(tgt["labels"])):
            q, j = divmod(int(cost.argmin()), cost.size(1))
            src.append(q)
            dst.append(j)
            cost[q, :] = float("inf")
            cost[:, j] = float("inf")
        indices.append((torch.tensor(src, dtype=torch.long), torch.tensor(dst, dtype=torch.long)))
    return indices


class SetCriterion(nn.Module):
    def __init__(self, num_classes, eos_coef=0.1):
        super().__init__()
        self.num_classes = num_classes
        empty_weight = torch.ones(num_classes + 1)
        empty_weight[-1] = eos_coef  # the "no object" class
        self.register_buffer("empty_weight", empty_weight)

    @staticmethod
    def _get_src_permutation_idx(indices):
        batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])  # [num_matched]
        src_idx = torch.cat([src for (src, _) in indices])  # [num_matched]
        return batch_idx, src_idx

    def loss_labels(self, outputs, targets, indices):
        src_logits = outputs["pred_logits"]  # [B, Q, C + 1]
        idx = self._get_src_permutation_idx(indices)
        target_classes_o = torch.cat([t["labels"][j] for t, (_, j) in zip(targets, indices)])  # [num_matched]
        target_classes = torch.full(src_logits.shape[:2], self.num_classes, dtype=torch.long)  # [B, Q]
        target_classes[idx] = target_classes_o  # each (image, query) pair occurs once
        return F.cross_entropy(src_logits.transpose(1, 2), target_classes, self.empty_weight)

    def loss_boxes(self, outputs, targets, indices, num_boxes):
        idx = self._get_src_permutation_idx(indices)
        src_boxes = outputs["pred_boxes"][idx]  # [num_matched, 4]
        target_boxes = torch.cat([t["boxes"][j] for t, (_, j) in zip(targets, indices)], dim=0)  # [num_matched, 4]
        return F.l1_loss(src_boxes, target_boxes, reduction="sum") / num_boxes

    def forward(self, outputs, targets):
        indices = greedy_matcher(outputs["pred_logits"], outputs["pred_boxes"], targets)
        num_boxes = max(sum(len(t["labels"]) for t in targets), 1)
        return {
            "loss_ce": self.loss_labels(outputs, targets, indices),
            "loss_bbox": self.loss_boxes(outputs, targets, indices, num_boxes),
        }, indices


if __name__ == "__main__":
    import math

    torch.manual_seed(0)
    B, Q, C = 2, 6, 3
    outputs = {"pred_logits": torch.randn(B, Q, C + 1), "pred_boxes": torch.rand(B, Q, 4)}
    targets = [
        {"labels": torch.tensor([2, 0, 2]), "boxes": torch.rand(3, 4)},
        {"labels": torch.tensor([1]), "boxes": torch.rand(1, 4)},
    ]
    criterion = SetCriterion(num_classes=C)
    losses, indices = criterion(outputs, targets)

    weight = [1.0] * C + [0.1]
    num, den, l1 = 0.0, 0.0, 0.0
    for b in range(B):
        matched = {q: j for q, j in zip(indices[b][0].tolist(), indices[b][1].tolist())}
        assert len(matched) == len(targets[b]["labels"])
        for q in range(Q):
            cls = targets[b]["labels"][matched[q]].item() if q in matched else C
            logits = outputs["pred_logits"][b, q].tolist()
            m = max(logits)
            lse = m + math.log(sum(math.exp(x - m) for x in logits))
            num += weight[cls] * (lse - logits[cls])
            den += weight[cls]
            if q in matched:
                for k in range(4):
                    l1 += abs(outputs["pred_boxes"][b, q, k].item() - targets[b]["boxes"][matched[q], k].item())
    assert abs(losses["loss_ce"].item() - num / den) < 1e-5
    assert abs(losses["loss_bbox"].item() - l1 / 4) < 1e-5
    assert box_cxcywh_to_xyxy(outputs["pred_boxes"]).shape == (B, Q, 4)
    print("ok")
