import torch


class PrototypeBank:
    """Running class means of encoder features, used as a nearest-prototype classifier."""

    def __init__(self, num_classes, dim):
        self.sums = torch.zeros(num_classes, dim)   # [C, D]
        self.counts = torch.zeros(num_classes)      # [C]

    @torch.no_grad()
    def update(self, feats, labels):
        # feats: [B, D], labels: [B]
        self.sums[labels] += feats
        self.counts[labels] += 1

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
    print("counts:", bank.counts.tolist())
    print(bank.prototypes())
