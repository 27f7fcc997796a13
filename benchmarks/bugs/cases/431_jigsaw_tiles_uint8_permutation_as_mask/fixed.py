import torch

# Jigsaw-puzzle pretext task: every image is cut into a 3x3 grid of tiles, the
# tiles are shuffled with one permutation out of a fixed table, and the network
# has to tell which permutation was applied.

GRID = 3
NUM_TILES = GRID * GRID


def load_permutation_table(num_perms, seed=0):
    # stored compactly: every entry is a tile position < 9, one byte is enough
    g = torch.Generator().manual_seed(seed)
    perms = [torch.randperm(NUM_TILES, generator=g) for _ in range(num_perms)]
    return torch.stack(perms).to(torch.uint8)  # [P, 9]


def cut_tiles(image):
    # image [C, H, W] -> tiles [9, C, H/3, W/3], row-major over the grid
    c, h, w = image.shape
    th, tw = h // GRID, w // GRID
    tiles = image.unfold(1, th, th).unfold(2, tw, tw)  # [C, 3, 3, th, tw]
    return tiles.permute(1, 2, 0, 3, 4).reshape(NUM_TILES, c, th, tw)


class JigsawDataset:
    def __init__(self, images, num_perms=10):
        self.images = images                       # list of [C, H, W]
        self.perms = load_permutation_table(num_perms)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        label = i % len(self.perms)
        order = self.perms[label]                  # [9]
        tiles = cut_tiles(self.images[i])          # [9, C, th, tw]
        shuffled = tiles[order.long()]             # [9, C, th, tw], tile k = tiles[order[k]]
        return shuffled, label


def collate(batch):
    tiles = torch.stack([t for t, _ in batch])     # [B, 9, C, th, tw]
    labels = torch.tensor([y for _, y in batch])
    return tiles, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    images = [torch.arange(3 * 24 * 24, dtype=torch.float32).view(3, 24, 24) + 1000 * n for n in range(4)]
    ds = JigsawDataset(images)
    tiles, labels = collate([ds[i] for i in range(len(ds))])
    assert tiles.shape == (4, 9, 3, 8, 8)
    for n, img in enumerate(images):
        perm = ds.perms[labels[n]].tolist()
        for k in range(NUM_TILES):
            r, c = divmod(perm[k], GRID)
            ref = img[:, r * 8:(r + 1) * 8, c * 8:(c + 1) * 8]
            assert torch.equal(tiles[n, k], ref)
    print("ok")
