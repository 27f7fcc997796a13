import torch
from torch.utils.data import DataLoader, Dataset


def points_to_density(points, height, width, stride):
    """Rasterise head annotations into a count map at the output resolution.

    Args:
        points: ``(N, 2)`` float tensor of ``(x, y)`` head positions in image pixels.
        height: image height in pixels.
        width: image width in pixels.
        stride: down-sampling factor of the counting network.

    Returns:
        ``(height // stride, width // stride)`` map whose sum is the number of people.
    """
    h, w = height // stride, width // stride
    cols = (points[:, 0] / stride).long().clamp(0, w - 1)
    rows = (points[:, 1] / stride).long().clamp(0, h - 1)
    flat_idx = rows * w + cols
    density = torch.zeros(h * w)
    density.scatter_(0, flat_idx, torch.ones(flat_idx.numel()))
    return density.view(h, w)


class CrowdDataset(Dataset):
    """Images with point annotations.

    Each item is ``(image, density)`` with ``image`` of shape ``(3, H, W)`` and
    ``density`` of shape ``(H // stride, W // stride)``.
    """

    def __init__(self, annotations, size=(64, 64), stride=8):
        self.annotations = annotations
        self.size = size
        self.stride = stride

    def __len__(self):
        return len(self.annotations)

    def __getitem__(self, i):
        H, W = self.size
        image = torch.rand(3, H, W)
        density = points_to_density(self.annotations[i], H, W, self.stride)
        return image, density


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    annotations = [torch.rand(n, 2, generator=g) * 64 for n in (40, 25, 3)]
    loader = DataLoader(CrowdDataset(annotations), batch_size=3)
    images, density = next(iter(loader))
    print("annotated people:", [len(a) for a in annotations])
    print("density map sums:", density.sum(dim=(1, 2)).tolist())
