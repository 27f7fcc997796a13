import torch
import torch.nn as nn
import torch.nn.functional as F


def box_cxcywh_to_xyxy(boxes):
    cx, cy, w, h = boxes.unbind(-1)
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=-1)


class SoftLabelPostProcessor(nn.Module):
    """Turns raw detector outputs into per-image detections with a class distribution per box.

    Classes are 1-indexed: column 0 of the logits is a background slot that a trained model
    keeps near zero, so it is dropped before ranking.

    Args:
        num_classes (`int`): number of logit columns, background slot included.
        num_top_queries (`int`): detections kept per image.
    """

    def __init__(self, num_classes: int = 81, num_top_queries: int = 300):
        super().__init__()
        self.num_classes = num_classes
        self.num_top_queries = num_top_queries

    @torch.no_grad()
    def forward(self, outputs, orig_target_sizes):
        """
        Args:
            outputs (`dict`):
                `pred_logits` of shape `(batch_size, num_queries, num_classes)` and `pred_boxes` of
                shape `(batch_size, num_queries, 4)` in normalized (cx, cy, w, h).
            orig_target_sizes (`torch.LongTensor` of shape `(batch_size, 2)`): (width, height) per image.

        Returns:
            `list[dict]`: per image `scores` `(num_top_queries,)`, `boxes` `(num_top_queries, 4)`,
            `class_probs` `(num_top_queries, num_classes - 1)` and `labels` `(num_top_queries,)`.
        """
        logits, boxes = outputs["pred_logits"], outputs["pred_boxes"]
        bbox_pred = box_cxcywh_to_xyxy(boxes) * orig_target_sizes.repeat(1, 2).unsqueeze(1)

        scores = torch.sigmoid(logits[:, :, 1:])
        scores, index = torch.topk(scores.flatten(1), self.num_top_queries, dim=-1)
        index = index // (self.num_classes - 1)

        soft_labels = F.softmax(logits[:, :, 1:], dim=-1)
        class_probs = soft_labels.gather(dim=1, index=index.unsqueeze(-1).tile(1, 1, soft_labels.shape[-1]))
        kept_boxes = bbox_pred.gather(dim=1, index=index.unsqueeze(-1).tile(1, 1, boxes.shape[-1]))
        labels = class_probs.argmax(dim=-1) + 1

        return [
            {"scores": s, "boxes": b, "class_probs": p, "labels": l}
            for s, b, p, l in zip(scores, kept_boxes, class_probs, labels)
        ]


if __name__ == "__main__":
    torch.manual_seed(0)
    post = SoftLabelPostProcessor(num_classes=21, num_top_queries=50)
    outputs = {"pred_logits": torch.randn(2, 100, 21) * 3, "pred_boxes": torch.rand(2, 100, 4) * 0.5 + 0.2}
    results = post(outputs, torch.tensor([[640, 480], [800, 600]]))
    # reference: rank (query, class) pairs and read each kept query's distribution by hand
    logits = outputs["pred_logits"]
    for b in range(2):
        pairs = sorted(((torch.sigmoid(logits[b, q, c]).item(), q) for q in range(100) for c in range(1, 21)),
                       key=lambda t: -t[0])[:50]
        for k, (score, q) in enumerate(pairs):
            probs = F.softmax(logits[b, q, 1:], dim=-1)
            assert results[b]["class_probs"][k].shape == (20,)
            assert torch.allclose(results[b]["class_probs"][k], probs)
            assert results[b]["labels"][k].item() == int(probs.argmax()) + 1
            assert abs(results[b]["scores"][k].item() - score) < 1e-6
    print("ok")
