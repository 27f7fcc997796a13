import random

import torch


def collate_sparse(samples):
    dense = torch.stack([s["dense"] for s in samples])
    ids = torch.cat([s["ids"] for s in samples])
    lengths = torch.tensor([len(s["ids"]) for s in samples])
    offsets = torch.cumsum(lengths, 0) - lengths
    labels = torch.tensor([s["label"] for s in samples], dtype=torch.float)
    return dense, ids, offsets, labels


class FrequencyTracker:
    """Access counts per embedding row, used to decide which rows stay cached."""

    def __init__(self, num_rows):
        self.counts = torch.zeros(num_rows, dtype=torch.long)

    def update(self, ids):
        self.counts[ids] += 1

    def hot_rows(self, k):
        return torch.topk(self.counts, k).indices


def make_samples(n, num_rows, rng):
    popular = [3, 7]
    out = []
    for _ in range(n):
        ids = [rng.choice(popular) if rng.random() < 0.6 else rng.randrange(num_rows) for _ in range(5)]
        out.append({"dense": torch.randn(4), "ids": torch.tensor(ids), "label": rng.random() < 0.5})
    return out


if __name__ == "__main__":
    rng = random.Random(0)
    num_rows = 50
    samples = make_samples(64, num_rows, rng)
    tracker = FrequencyTracker(num_rows)
    for start in range(0, len(samples), 16):
        dense, ids, offsets, labels = collate_sparse(samples[start:start + 16])
        tracker.update(ids)
    true_count = sum(int((s["ids"] == 3).sum()) for s in samples)
    print("row 3 counted", tracker.counts[3].item(), "times; accessed", true_count, "times")
    print("total counted", tracker.counts.sum().item(), "of", sum(len(s["ids"]) for s in samples))
