import torch


class PrototypeBank:
    """Running class means of encoder features, used as a nearest-prototype classifier."""

    def __init__(self, num_classes, dim):
        self.sums = torch.zeros(num_classes, dim)   # [C, D]
        self.counts = torch.zeros(num_classes)      # [C]

    @torch.no_grad()
    def update(self, feats, labels):
        # feats: [B, D], labels: [B]
        self.sums.index_add_(0, labels, feats)
        self.counts.index_add_(0, labels, torch.ones_like(labels, dtype=self.counts.dtype))

    def prototypes(self):
        return self.sums / self.counts.clamp(min=1).unsqueeze(-1)   # [C, D]


def train_epoch(bank, batches):
    for feats, labels in batches:
        bank.update(feats, labels)


if __name__ == "__main__":
    torch.manual_seed(0)
    batches = [(torch.randn(6, 4), torch.tensor([0, 1, 0, 2, 0, 1])),
               (torch.randn(6, 4), torch.tensor([2, 2, 1, 0, 1, 1]))]
    bank = PrototypeBank(num_classes=3, dim=4)
    train_epoch(bank, batches)
    sums = [[0.0] * 4 for _ in range(3)]
    counts = [0] * 3
    for feats, labels in batches:
        for i in range(feats.size(0)):
            c = labels[i].item()
            counts[c] += 1
            for d in range(4):
                sums[c][d] += feats[i, d].item()
    assert bank.counts.tolist() == counts
    protos = bank.prototypes()
    for c in range(3):
        for d in range(4):
            assert abs(protos[c, d].item() - sums[c][d] / counts[c]) < 1e-5
    print("ok")
