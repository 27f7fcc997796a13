import torch


def refine_detections(anchors, box_deltas, class_logits, max_dets=20, min_conf=0.05):
    fg_probs = torch.sigmoid(class_logits)
    flat_probs = fg_probs.view(-1)
    keep = torch.nonzero(flat_probs > min_conf).squeeze(1)
    keep_scores = flat_probs[keep]
    order = keep_scores.argsort(descending=True)[:max_dets]
    keep_ix = keep[order]

    anchor_ix = keep_ix / fg_probs.shape[1]
    class_ids = keep_ix % fg_probs.shape[1]

    boxes = anchors[anchor_ix] + box_deltas[anchor_ix]
    return boxes, class_ids + 1, flat_probs[keep_ix]


if __name__ == "__main__":
    torch.manual_seed(0)
    anchors = torch.rand(300, 4) * 64
    box_deltas = torch.randn(300, 4) * 0.5
    class_logits = torch.randn(300, 3) - 2.0
    boxes, cls, scores = refine_detections(anchors, box_deltas, class_logits)
    print(boxes.shape, cls.tolist()[:5], scores[:5].tolist())
