import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

VOC_NAMES = ["aeroplane", "bicycle", "bird", "boat", "bottle", "bus", "car", "cat", "chair", "cow",
             "diningtable", "dog", "horse", "motorbike", "person", "pottedplant", "sheep", "sofa",
             "train", "tvmonitor"]
KEEP = ["bicycle", "car", "person"]


def voc_to_coco_categories(keep):
    """COCO-style category list produced by the VOC converter (ids are 1-based VOC positions)."""
    return [{"id": VOC_NAMES.index(name) + 1, "name": name} for name in keep]


class DetrHead(nn.Module):
    """Class and box heads on top of decoder outputs.

    Args:
        hidden_dim (int): decoder width.
        num_classes (int): number of object classes; one extra logit is the no-object class.
    """

    def __init__(self, hidden_dim, num_classes):
        super().__init__()
        self.class_embed = nn.Linear(hidden_dim, num_classes + 1)
        self.bbox_embed = nn.Linear(hidden_dim, 4)

    def forward(self, hs):
        """
        Args:
            hs (Tensor): decoder output of shape [batch_size, num_queries, hidden_dim].

        Returns:
            dict: "pred_logits" [batch_size, num_queries, num_classes + 1],
            "pred_boxes" [batch_size, num_queries, 4] (normalized cx, cy, w, h).
        """
        return {"pred_logits": self.class_embed(hs), "pred_boxes": self.bbox_embed(hs).sigmoid()}


class HungarianMatcher(nn.Module):
    def __init__(self, cost_class=1.0, cost_bbox=5.0):
        super().__init__()
        self.cost_class, self.cost_bbox = cost_class, cost_bbox

    @torch.no_grad()
    def forward(self, outputs, targets):
        """
        Args:
            outputs (dict): "pred_logits" [batch_size, num_queries, num_classes + 1] and
                "pred_boxes" [batch_size, num_queries, 4].
            targets (list[dict]): per image "labels" [num_target_boxes] (class ids) and
                "boxes" [num_target_boxes, 4].

        Returns:
            list[tuple[Tensor, Tensor]]: (query indices, target indices) per image.
        """
        bs, num_queries = outputs["pred_logits"].shape[:2]
        out_prob = outputs["pred_logits"].flatten(0, 1).softmax(-1)
        out_bbox = outputs["pred_boxes"].flatten(0, 1)
        tgt_ids = torch.cat([t["labels"] for t in targets])
        tgt_bbox = torch.cat([t["boxes"] for t in targets])

        cost_class = -out_prob[:, tgt_ids]
        cost_bbox = torch.cdist(out_bbox, tgt_bbox, p=1)
        cost = (self.cost_bbox * cost_bbox + self.cost_class * cost_class).view(bs, num_queries, -1)

        sizes = [len(t["boxes"]) for t in targets]
        indices = []
        for i, c in enumerate(cost.split(sizes, -1)):
            c = c[i]
            best = min(itertools.permutations(range(num_queries), sizes[i]),
                       key=lambda qs: sum(c[q, j].item() for j, q in enumerate(qs)))
            indices.append((torch.tensor(best, dtype=torch.long), torch.arange(sizes[i])))
        return indices


def loss_labels(outputs, targets, indices, num_classes, eos_coef=0.1):
    """Classification loss (NLL) with a down-weighted no-object class.

    Args:
        outputs (dict): "pred_logits" [batch_size, num_queries, num_classes + 1].
        targets (list[dict]): per image "labels" [num_target_boxes].
        indices (list[tuple[Tensor, Tensor]]): matcher output.
        num_classes (int): the no-object class id.
    """
    logits = outputs["pred_logits"]
    batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
    src_idx = torch.cat([src for src, _ in indices])
    target_classes_o = torch.cat([t["labels"][j] for t, (_, j) in zip(targets, indices)])
    target_classes = torch.full(logits.shape[:2], num_classes, dtype=torch.int64)
    target_classes[batch_idx, src_idx] = target_classes_o
    weight = torch.ones(num_classes + 1)
    weight[-1] = eos_coef
    return F.cross_entropy(logits.transpose(1, 2), target_classes, weight)


if __name__ == "__main__":
    torch.manual_seed(0)
    categories = voc_to_coco_categories(KEEP)
    num_classes = len(categories)
    head = DetrHead(hidden_dim=32, num_classes=num_classes)
    hs = torch.randn(2, 5, 32)
    targets = [
        {"labels": torch.tensor([categories[2]["id"], categories[1]["id"]]), "boxes": torch.rand(2, 4)},
        {"labels": torch.tensor([categories[0]["id"]]), "boxes": torch.rand(1, 4)},
    ]
    outputs = head(hs)
    indices = HungarianMatcher()(outputs, targets)
    loss = loss_labels(outputs, targets, indices, num_classes)
    print("loss_ce:", loss.item())
