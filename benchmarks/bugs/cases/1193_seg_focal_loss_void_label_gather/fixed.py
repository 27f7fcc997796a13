import torch
import torch.nn.functional as F

VOID_LABEL = 255
NUM_CLASSES = 21


class VOCLikeSegmentation:
    """Synthetic VOC-style dataset; returns (image, mask) pairs.

    Returns:
        image: float tensor of shape (3, H, W).
        mask: long tensor of shape (H, W) with class ids; boundary pixels are void.
    """

    def __init__(self, n, size=8, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.images = torch.randn(n, 3, size, size, generator=g)
        self.masks = torch.randint(0, NUM_CLASSES, (n, size, size), generator=g)
        self.masks[:, 0, :] = -1  # boundary band from the annotation tool

    def __len__(self):
        return self.images.size(0)

    def __getitem__(self, i):
        mask = self.masks[i].clone()
        mask[mask == -1] = VOID_LABEL
        return self.images[i], mask


def focal_loss(logits, target, gamma=2.0, ignore_index=255):
    """Pixel-wise focal loss.

    Args:
        logits: (N, C, H, W) raw class scores.
        target: (N, H, W) class ids in [0, C) or ``ignore_index``.
    Returns:
        scalar loss averaged over non-ignored pixels.
    """
    valid = target != ignore_index
    safe_target = target.masked_fill(~valid, 0)
    logp = F.log_softmax(logits, dim=1)
    logp_t = logp.gather(1, safe_target.unsqueeze(1)).squeeze(1)  # (N, H, W)
    p_t = logp_t.exp()
    loss = -((1 - p_t) ** gamma) * logp_t
    return loss[valid].mean()


if __name__ == "__main__":
    import math
    torch.manual_seed(0)
    ds = VOCLikeSegmentation(n=4)
    imgs, masks = zip(*[ds[i] for i in range(len(ds))])
    imgs, masks = torch.stack(imgs), torch.stack(masks)
    head = torch.nn.Conv2d(3, NUM_CLASSES, kernel_size=1)
    with torch.no_grad():
        logits = head(imgs)
        got = focal_loss(logits, masks).item()
        logp = F.log_softmax(logits, dim=1)
        total, count = 0.0, 0
        N, _, H, W = logits.shape
        for n in range(N):
            for h in range(H):
                for w in range(W):
                    c = int(masks[n, h, w])
                    if c == 255:
                        continue
                    lp = logp[n, c, h, w].item()
                    total += -((1 - math.exp(lp)) ** 2.0) * lp
                    count += 1
    assert abs(got - total / count) < 1e-5, (got, total / count)
    print("ok")
