import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_ANCHORS = 10


def make_anchors(img_h, img_w, stride=8):
    ys = torch.arange(0, img_h, stride)
    xs = torch.arange(0, img_w, stride)
    cy, cx = torch.meshgrid(ys, xs, indexing="ij")
    heights = torch.tensor([11, 16, 23, 33, 48, 68, 97, 139, 198, 283]).float()
    centers = torch.stack([cx, cy], -1).reshape(-1, 1, 2).float()
    boxes = torch.cat([centers - torch.stack([torch.full_like(heights, 8), heights / 2], -1),
                       centers + torch.stack([torch.full_like(heights, 8), heights / 2], -1)], -1)
    return boxes.reshape(-1, 4)


class TextProposalHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.MaxPool2d(2),
            nn.Conv2d(32, 32, 3, padding=1), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.MaxPool2d(2),
        )
        self.cls = nn.Conv2d(64, NUM_ANCHORS * 2, 1)

    def forward(self, img):
        logits = self.cls(self.backbone(img))
        b = logits.size(0)
        return logits.permute(0, 2, 3, 1).reshape(b, -1, 2)


def sample_anchor_labels(anchors, gt_rows, n=64):
    labels = (anchors[:, 1] > gt_rows[0]) & (anchors[:, 3] < gt_rows[1])
    pos = labels.nonzero().squeeze(1)[: n // 2]
    neg = (~labels).nonzero().squeeze(1)[-(n // 2):]
    keep = torch.cat([pos, neg])
    return keep, labels[keep].long()


def train_step(model, img):
    scores = model(img)
    anchors = make_anchors(img.shape[2], img.shape[3])
    cls_keep, target = sample_anchor_labels(anchors, gt_rows=(150.0, 300.0))
    cls_pred = scores[0][cls_keep]
    return F.cross_entropy(cls_pred, target)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TextProposalHead()
    loss = train_step(model, torch.randn(1, 3, 448, 448))
    print("loss", float(loss))
