import torch
from torch.utils.data import Dataset

config = {"num_classes": 5, "ignore_index": 255, "num_images": 6, "size": 16}


class ToySegDataset(Dataset):
    def __init__(self, cfg, seed=0):
        self.cfg = cfg
        self.g = torch.Generator().manual_seed(seed)
        self.masks = [self._make_mask() for _ in range(cfg["num_images"])]

    def _make_mask(self):
        n, s = self.cfg["num_classes"], self.cfg["size"]
        mask = torch.randint(0, n, (s, s), generator=self.g)
        mask[:2] = self.cfg["ignore_index"]
        return mask

    def __len__(self):
        return len(self.masks)

    def __getitem__(self, i):
        return {"mask": self.masks[i]}


def class_frequencies(dataset, num_classes, ignore_index):
    counts = torch.zeros(num_classes)
    for sample in dataset:
        labels = sample["mask"].flatten()
        labels = labels[labels != ignore_index]
        counts[labels] += 1
    return counts


def inverse_frequency_weights(counts):
    freq = counts / counts.sum()
    w = 1.0 / torch.log(1.02 + freq)
    return w / w.mean()


if __name__ == "__main__":
    ds = ToySegDataset(config)
    counts = class_frequencies(ds, config["num_classes"], config["ignore_index"])
    print("pixel counts per class:", counts.tolist())
    print("class weights:", inverse_frequency_weights(counts).tolist())
