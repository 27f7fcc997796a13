import torch
from torch import nn


def box_iou(a, b):
    # a: [N, 4], b: [M, 4] in xyxy -> [N, M]
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    return inter / (area_a[:, None] + area_b[None] - inter)


def nms(boxes, scores, iou_thr):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i][None], boxes[order[1:]])[0]
        order = order[1:][ious <= iou_thr]
    return torch.stack(keep) if keep else torch.zeros(0, dtype=torch.long)


class ONNXNMS(nn.Module):
    """Batched NMS head that mimics the EfficientNMS outputs of the deploy graph."""

    def __init__(self, iou_threshold=0.5, score_threshold=0.3, max_output_boxes=10):
        super().__init__()
        self.iou_threshold = iou_threshold
        self.score_threshold = score_threshold
        self.max_output_boxes = max_output_boxes

    def forward(self, boxes, scores):
        # boxes: [B, N, 4], scores: [B, N, C]
        batch_size = boxes.shape[0]
        max_scores, labels = scores.max(dim=-1)  # [B, N]

        selected = []
        for b in range(batch_size):
            cand = (max_scores[b] > self.score_threshold).nonzero().squeeze(1)
            # class-aware NMS by shifting every class to its own region
            shifted = boxes[b, cand] + labels[b, cand, None].float() * 4096
            keep = cand[nms(shifted, max_scores[b, cand], self.iou_threshold)]
            keep = keep[: self.max_output_boxes]
            selected.append(torch.stack([torch.full_like(keep, b), keep], dim=1))
        selected = torch.cat(selected)  # [num_selected, 2] = (batch_ind, box_ind)
        batch_inds, box_inds = selected.unbind(1)

        # number of detections of every image in the batch
        _, num_dets = torch.unique(batch_inds, return_counts=True)

        slot = torch.arange(batch_inds.numel()) - (num_dets.cumsum(0) - num_dets).repeat_interleave(num_dets)
        det_boxes = boxes.new_zeros(batch_size, self.max_output_boxes, 4)
        det_scores = scores.new_zeros(batch_size, self.max_output_boxes)
        det_labels = labels.new_full((batch_size, self.max_output_boxes), -1)
        det_boxes[batch_inds, slot] = boxes[batch_inds, box_inds]
        det_scores[batch_inds, slot] = max_scores[batch_inds, box_inds]
        det_labels[batch_inds, slot] = labels[batch_inds, box_inds]
        return num_dets, det_boxes, det_scores, det_labels


def make_predictions(batch_size=6, num_anchors=8, num_classes=3):
    torch.manual_seed(0)
    xy = torch.rand(batch_size, num_anchors, 2) * 200
    wh = torch.rand(batch_size, num_anchors, 2) * 40 + 10
    boxes = torch.cat([xy, xy + wh], dim=-1)
    scores = torch.rand(batch_size, num_anchors, num_classes) * 0.25
    # confident objects only in images 0, 1 and 3; images 2, 4, 5 are empty
    scores[0, 0, 1] = 0.9
    scores[1, 2, 0] = 0.8
    scores[1, 5, 2] = 0.7
    scores[3, 4, 1] = 0.95
    return boxes, scores


if __name__ == "__main__":
    image_names = [f"img_{i}.jpg" for i in range(6)]
    boxes, scores = make_predictions()
    num_dets, det_boxes, det_scores, det_labels = ONNXNMS()(boxes, scores)
    print("num_dets:", num_dets.tolist())
    results = [det_scores[i, : num_dets[i]] for i in range(len(num_dets))]
    for name, s in zip(image_names, results):
        print(name, "scores", [round(v, 2) for v in s.tolist()])
