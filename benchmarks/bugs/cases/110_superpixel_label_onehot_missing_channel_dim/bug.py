import torch
import torch.nn.functional as F


def label2one_hot(labels, num_segments):
    """Turn a segment-id map into a one-hot volume.

    Args:
        labels (LongTensor): segment ids of shape ``(B, 1, H, W)``.
        num_segments (int): number of output channels ``C``; ids must be smaller.

    Returns:
        FloatTensor of shape ``(B, C, H, W)``.
    """
    b, h, w = labels.size(0), labels.size(-2), labels.size(-1)
    one_hot = torch.zeros(b, num_segments, h, w, device=labels.device)
    return one_hot.scatter_(1, labels.long(), 1.0)


def grid_superpixels(batch, height, width, cell):
    """Initial superpixel assignment on a regular grid.

    Returns:
        LongTensor of shape ``(batch, height, width)`` with ids in ``[0, (height // cell) * (width // cell))``.
    """
    rows = torch.arange(height) // cell
    cols = torch.arange(width) // cell
    ids = rows[:, None] * (width // cell) + cols[None, :]
    return ids.expand(batch, -1, -1).clone()


def superpixel_means(image, labels, num_segments):
    """Mean colour of every superpixel.

    Args:
        image (FloatTensor): ``(B, 3, H, W)``.
        labels (LongTensor): ``(B, H, W)`` superpixel id of every pixel.

    Returns:
        FloatTensor ``(B, num_segments, 3)``.
    """
    one_hot = label2one_hot(labels, num_segments).flatten(2)
    sums = one_hot @ image.flatten(2).transpose(1, 2)
    counts = one_hot.sum(-1, keepdim=True).clamp(min=1)
    return sums / counts


if __name__ == "__main__":
    torch.manual_seed(0)
    image = F.avg_pool2d(torch.rand(2, 3, 32, 32), 3, stride=1, padding=1)
    labels = grid_superpixels(2, 32, 32, cell=8)
    means = superpixel_means(image, labels, num_segments=16)
    ref = torch.stack([torch.stack([image[b][:, labels[b] == s].mean(-1) for s in range(16)]) for b in range(2)])
    print("superpixel means match:", torch.allclose(means, ref, atol=1e-5))
