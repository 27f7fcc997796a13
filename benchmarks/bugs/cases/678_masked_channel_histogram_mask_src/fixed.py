import torch
import torch.nn as nn


class ColorHistogram(nn.Module):
    """Per-image, per-channel colour histogram restricted to a foreground mask.

    Args:
        num_bins: number of equal-width bins over [0, 1].

    Forward args:
        images: (B, C, H, W) float tensor in [0, 1].
        masks: (B, 1, H, W) bool tensor, True on foreground pixels.

    Returns:
        (B, C, num_bins) normalised histograms.
    """

    def __init__(self, num_bins=8):
        super().__init__()
        self.num_bins = num_bins

    def forward(self, images, masks):
        b, c, h, w = images.shape
        bins = (images * self.num_bins).long().clamp_(max=self.num_bins - 1)
        bins = bins.view(b, c, h * w)
        weights = masks.view(b, 1, h * w).to(images.dtype).expand(b, c, h * w)
        hist = images.new_zeros(b, c, self.num_bins)
        hist.scatter_add_(2, bins, weights)
        return hist / hist.sum(-1, keepdim=True).clamp(min=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    images = torch.rand(2, 3, 5, 5)
    masks = torch.rand(2, 1, 5, 5) > 0.3
    hist = ColorHistogram(num_bins=4)(images, masks)
    for b in range(2):
        for ch in range(3):
            ref = [0.0] * 4
            for i in range(5):
                for j in range(5):
                    if masks[b, 0, i, j]:
                        k = min(int(images[b, ch, i, j].item() * 4), 3)
                        ref[k] += 1
            tot = max(sum(ref), 1)
            assert torch.allclose(hist[b, ch], torch.tensor([r / tot for r in ref]), atol=1e-6)
    print("ok")
