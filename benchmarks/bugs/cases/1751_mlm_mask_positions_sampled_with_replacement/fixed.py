import math

import torch


class MaskTokensDataset:
    def __init__(self, mask_idx, pad_idx, mask_prob=0.15, seed=1):
        self.mask_idx = mask_idx
        self.pad_idx = pad_idx
        self.mask_prob = mask_prob
        self.generator = torch.Generator().manual_seed(seed)

    def mask_item(self, item):
        sz = item.numel()
        num_mask = math.ceil(self.mask_prob * sz)
        weights = torch.ones(sz)
        positions = torch.multinomial(weights, num_mask, replacement=False, generator=self.generator)
        mask = torch.zeros(sz, dtype=torch.bool)
        mask.index_fill_(0, positions, True)
        source = item.masked_fill(mask, self.mask_idx)
        target = item.masked_fill(~mask, self.pad_idx)
        return source, target, num_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    dataset = MaskTokensDataset(mask_idx=3, pad_idx=1, mask_prob=0.3)
    batch = torch.randint(4, 1000, (4, 64))
    for row in batch:
        source, target, num_mask = dataset.mask_item(row)
        masked = [t for t in range(row.numel()) if int(source[t]) == 3]
        assert len(masked) == num_mask
        for t in range(row.numel()):
            if t in masked:
                assert int(target[t]) == int(row[t])
            else:
                assert int(source[t]) == int(row[t]) and int(target[t]) == 1
    print("ok")
