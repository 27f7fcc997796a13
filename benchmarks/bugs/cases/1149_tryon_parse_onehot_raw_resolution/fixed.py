import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class TryOnDataset(Dataset):
    def __init__(self, raw_parses):
        self.fine_height = 64
        self.fine_width = 48
        self.semantic_nc = 20
        self.raw_parses = raw_parses

    def __len__(self):
        return len(self.raw_parses)

    def load_parse(self, i):
        parse = torch.from_numpy(self.raw_parses[i]).float()[None, None]
        parse = F.interpolate(parse, size=(self.fine_height, self.fine_width), mode="nearest")
        return parse[0].long()

    def __getitem__(self, i):
        parse = self.load_parse(i)
        parse_map = torch.zeros(20, 64, 48)
        parse_map = parse_map.scatter_(0, parse, 1.0)
        person = torch.randn(3, self.fine_height, self.fine_width)
        return {"parse_onehot": parse_map, "person": person}


def make_raw_parses(n, height, width, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 20, size=(height, width)).astype(np.uint8) for _ in range(n)]


if __name__ == "__main__":
    torch.manual_seed(0)
    test_set = TryOnDataset(make_raw_parses(2, 128, 96))  # parse maps as saved by the human parser
    loader = DataLoader(test_set, batch_size=2)
    batch = next(iter(loader))
    onehot = batch["parse_onehot"]
    assert onehot.shape == (2, 20, 64, 48)
    for b, raw in enumerate(test_set.raw_parses):
        for y in range(64):
            for x in range(48):
                label = int(raw[2 * y, 2 * x])
                assert onehot[b, label, y, x] == 1.0 and onehot[b, :, y, x].sum() == 1.0
    print("ok")
