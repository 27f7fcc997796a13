import torch
import torch.nn as nn
import torch.nn.functional as F


class BoundaryLoss(nn.Module):
    """Boundary F1 loss for semantic segmentation.

    Args:
        theta0 (int): kernel size used to extract boundaries.
        theta (int): kernel size used to extend boundaries.
    """

    def __init__(self, theta0=3, theta=5, ignore_index=255):
        super().__init__()
        self.theta0, self.theta = theta0, theta
        self.ignore_index = ignore_index

    def _one_hot(self, gt, c):
        valid = gt != self.ignore_index
        one_hot = F.one_hot(gt.masked_fill(~valid, 0), c).permute(0, 3, 1, 2).float()
        return one_hot * valid.unsqueeze(1)

    def _boundary(self, x, k):
        return F.max_pool2d(1 - x, kernel_size=k, stride=1, padding=(k - 1) // 2) - (1 - x)

    def forward(self, pred, gt):
        """
        Args:
            pred (`torch.FloatTensor` of shape `(batch_size, num_classes, height, width)`): logits.
            gt (`torch.LongTensor` of shape `(batch_size, height, width)`): class ids per pixel.

        Returns:
            `torch.FloatTensor` scalar.
        """
        n, c, _, _ = pred.shape
        pred = torch.softmax(pred, dim=1)
        one_hot_gt = self._one_hot(gt, c)
        gt_b = self._boundary(one_hot_gt, self.theta0)
        pred_b = self._boundary(pred, self.theta0)
        gt_b_ext = F.max_pool2d(gt_b, self.theta, 1, (self.theta - 1) // 2)
        pred_b_ext = F.max_pool2d(pred_b, self.theta, 1, (self.theta - 1) // 2)
        P = (pred_b * gt_b_ext).sum((2, 3)) / (pred_b.sum((2, 3)) + 1e-7)
        R = (pred_b_ext * gt_b).sum((2, 3)) / (gt_b.sum((2, 3)) + 1e-7)
        return (1 - 2 * P * R / (P + R + 1e-7)).mean()


def load_batch(cfg):
    g = torch.Generator().manual_seed(0)
    masks = torch.randint(0, cfg["num_classes"], (cfg["batch"], cfg["size"], cfg["size"]), generator=g)
    masks[:, :2, :] = cfg["ignore_index"]   # unlabeled border from the annotation tool
    logits = torch.randn(cfg["batch"], cfg["num_classes"], cfg["size"], cfg["size"], generator=g)
    return logits, masks


if __name__ == "__main__":
    cfg = {"num_classes": 2, "ignore_index": 255, "batch": 2, "size": 16}
    logits, masks = load_batch(cfg)
    ce = F.cross_entropy(logits, masks, ignore_index=cfg["ignore_index"])
    loss_fn = BoundaryLoss(ignore_index=cfg["ignore_index"])
    bl = loss_fn(logits, masks)
    oh = loss_fn._one_hot(masks, cfg["num_classes"])
    for b in range(cfg["batch"]):
        for y in range(cfg["size"]):
            for x in range(cfg["size"]):
                lab = int(masks[b, y, x])
                for k in range(cfg["num_classes"]):
                    want = 1.0 if (lab != cfg["ignore_index"] and lab == k) else 0.0
                    assert oh[b, k, y, x].item() == want
    assert torch.isfinite(bl)
    print("ok")
