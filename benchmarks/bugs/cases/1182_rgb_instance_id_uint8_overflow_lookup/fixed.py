import torch
from torch.utils.data import Dataset


class RGBEncodedSemantics(Dataset):
    """Scenes whose semantic PNGs store a global instance id as r*256^2 + g*256 + b."""

    def __init__(self, label_images, instance_to_class):
        self.label_images = label_images          # list of (H, W, 3) uint8
        self.instance_to_class = instance_to_class  # (num_instances,) int64 class id per instance

    def __len__(self):
        return len(self.label_images)

    def __getitem__(self, i):
        img = self.label_images[i].long()         # (H, W, 3), widened from the PNG's uint8
        instance = img[..., 0] * 256 * 256 + img[..., 1] * 256 + img[..., 2]   # (H, W)
        semantic = self.instance_to_class[instance]                          # (H, W)
        return semantic


def encode(ids, h, w):
    # ids: (H*W,) int64 instance ids -> (H, W, 3) uint8 image
    r = (ids // 65536) % 256
    g = (ids // 256) % 256
    b = ids % 256
    return torch.stack([r, g, b], dim=-1).view(h, w, 3).to(torch.uint8)


def build_example():
    g = torch.Generator().manual_seed(0)
    num_instances = 3 * 65536
    instance_to_class = torch.randint(0, 13, (num_instances,), generator=g)
    ids = torch.tensor([5, 300, 70000, 131300, 65536 + 17, 2 * 65536 + 256 * 4 + 9])
    img = encode(ids, 2, 3)
    return RGBEncodedSemantics([img], instance_to_class), ids


if __name__ == "__main__":
    ds, ids = build_example()
    semantic = ds[0]
    img = ds.label_images[0]
    h, w, _ = img.shape
    for y in range(h):
        for x in range(w):
            r, gg, b = (int(v) for v in img[y, x])
            inst = r * 65536 + gg * 256 + b
            assert int(semantic[y, x]) == int(ds.instance_to_class[inst])
    print("ok")
