import torch
import torch.nn.functional as F

IGNORE_INDEX = 255


def masked_pixel_nll(logits, labels, ignore_index=IGNORE_INDEX):
    """Per-pixel NLL that skips ignored pixels.

    Args:
        logits: (B, C, H, W) class scores.
        labels: (B, H, W) class ids in [0, C) or ``ignore_index``.

    Returns:
        Scalar mean NLL over the valid pixels.
    """
    valid = labels != ignore_index  # (B, H, W)
    safe = torch.where(valid, labels, torch.zeros_like(labels))  # 255 -> 0, masked out below
    logp = F.log_softmax(logits, dim=1)
    picked = logp.gather(1, safe.unsqueeze(1)).squeeze(1)  # (B, H, W)
    return -(picked * valid).sum() / valid.sum().clamp(min=1)


def masked_one_hot(labels, num_classes, ignore_index=IGNORE_INDEX):
    """(B, H, W) ids -> (B, C, H, W) one-hot; ignored pixels are all-zero."""
    valid = labels != ignore_index
    safe = labels.masked_fill(~valid, 0)
    one_hot = torch.zeros(labels.size(0), num_classes, *labels.shape[1:])
    one_hot.scatter_(1, safe.unsqueeze(1), 1.0)
    return one_hot * valid.unsqueeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, C, H, W = 2, 4, 3, 5
    logits = torch.randn(B, C, H, W)
    labels = torch.randint(0, C, (B, H, W))
    labels[0, 0, :2] = IGNORE_INDEX
    labels[1, 2, 4] = IGNORE_INDEX

    loss = masked_pixel_nll(logits, labels)
    oh = masked_one_hot(labels, C)

    logp = F.log_softmax(logits, dim=1)
    total, count = 0.0, 0
    for b in range(B):
        for y in range(H):
            for x in range(W):
                lab = int(labels[b, y, x])
                row = [float(oh[b, c, y, x]) for c in range(C)]
                if lab == IGNORE_INDEX:
                    assert row == [0.0] * C
                    continue
                assert row == [1.0 if c == lab else 0.0 for c in range(C)]
                total += -float(logp[b, lab, y, x])
                count += 1
    assert abs(loss.item() - total / count) < 1e-5
    assert F.cross_entropy(logits, labels, ignore_index=IGNORE_INDEX).sub(loss).abs().item() < 1e-5
    print("ok")
