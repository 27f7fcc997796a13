import numpy as np
import torch


class ClassFrequencyMeter:
    """Accumulates per-class pixel counts to derive median-frequency class weights."""

    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.counts = torch.zeros(num_classes, dtype=torch.float64)

    def update(self, label_map):
        labels = label_map.reshape(-1).long()
        ones = torch.ones(labels.numel(), dtype=torch.float64)
        self.counts.index_put_((labels,), ones, accumulate=True)

    def weights(self):
        freq = self.counts / self.counts.sum()
        return freq.median() / freq.clamp(min=1e-12)


def load_label_png(seed, height, width, num_classes):
    # label PNGs decode to uint8 arrays
    rng = np.random.default_rng(seed)
    return rng.integers(0, num_classes, size=(height, width)).astype(np.uint8)


if __name__ == "__main__":
    meter = ClassFrequencyMeter(num_classes=6)
    for seed in range(3):
        mask = torch.from_numpy(load_label_png(seed, 24, 32, 6))
        meter.update(mask)
    ref = [0.0] * 6
    for seed in range(3):
        for v in load_label_png(seed, 24, 32, 6).reshape(-1).tolist():
            ref[int(v)] += 1.0
    assert meter.counts.tolist() == ref, (meter.counts.tolist(), ref)
    print("ok")
