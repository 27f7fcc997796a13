import torch
import torch.nn as nn


class AnchorHead(nn.Module):
    def __init__(self, in_channels, num_anchors, num_classes):
        super().__init__()
        self.num_anchors = num_anchors
        self.num_classes = num_classes
        self.cls_conv = nn.Conv2d(in_channels, num_anchors * num_classes, 3, padding=1)
        self.reg_conv = nn.Conv2d(in_channels, num_anchors * 4, 3, padding=1)

    def forward(self, feats):
        b = feats.size(0)
        cls = self.cls_conv(feats).permute(0, 2, 3, 1).reshape(b, -1, self.num_classes)
        reg = self.reg_conv(feats).permute(0, 2, 3, 1).reshape(b, -1, 4)
        return cls, reg


def top_detection(cls_logits, box_deltas, anchors):
    scores = cls_logits.sigmoid().amax(dim=-1)
    boxes = anchors.unsqueeze(0) + box_deltas
    best = scores.argmax(dim=1)
    best_boxes = torch.take_along_dim(boxes, best[:, None, None], dim=1)
    best_scores = torch.take_along_dim(scores, best.unsqueeze(-1), dim=1)
    return best_boxes.squeeze(1), best_scores.squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    head = AnchorHead(in_channels=8, num_anchors=3, num_classes=5)
    feats = torch.randn(2, 8, 4, 4)
    anchors = torch.rand(4 * 4 * 3, 4) * 32
    cls, reg = head(feats)
    boxes, scores = top_detection(cls, reg, anchors)
    all_boxes = anchors.unsqueeze(0) + reg
    all_scores = cls.sigmoid().amax(-1)
    for b in range(2):
        i = max(range(all_scores.size(1)), key=lambda a: all_scores[b, a].item())
        assert torch.equal(boxes[b], all_boxes[b, i]) and scores[b].item() == all_scores[b, i].item()
    print("ok")
