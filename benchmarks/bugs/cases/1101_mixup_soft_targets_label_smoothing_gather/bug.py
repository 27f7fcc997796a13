import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class TinyImageSet(Dataset):
    def __init__(self, n=16, num_classes=5):
        g = torch.Generator().manual_seed(0)
        self.images = torch.randn(n, 3, 8, 8, generator=g)
        self.labels = torch.randint(0, num_classes, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"inputs": self.images[i], "targets": self.labels[i]}


class MixupCutmixCollator:
    """Batch-level mixup applied in the DataLoader.

    Returns a dict with ``inputs`` (B, C, H, W) and ``targets``; when mixing is
    applied the targets become soft labels of shape (B, num_classes).
    """

    def __init__(self, num_classes, alpha=0.4, prob=1.0):
        self.num_classes = num_classes
        self.alpha = alpha
        self.prob = prob

    def __call__(self, batch):
        inputs = torch.stack([b["inputs"] for b in batch])
        targets = torch.stack([b["targets"] for b in batch])
        if torch.rand(1).item() < self.prob:
            lam = float(torch.distributions.Beta(self.alpha, self.alpha).sample())
            perm = torch.arange(inputs.size(0)).flip(0)
            inputs = lam * inputs + (1.0 - lam) * inputs[perm]
            onehot = F.one_hot(targets, self.num_classes).float()
            targets = lam * onehot + (1.0 - lam) * onehot[perm]
        return {"inputs": inputs, "targets": targets}


class SmoothCELoss(nn.Module):
    """Label-smoothing cross entropy.

    Args:
        outputs: logits of shape (B, num_classes).
        targets: class indices of shape (B,).
    """

    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing = smoothing

    def forward(self, outputs, targets):
        logprobs = F.log_softmax(outputs, dim=-1)
        nll = -logprobs.gather(dim=-1, index=targets.unsqueeze(1)).squeeze(1)
        smooth = -logprobs.mean(dim=-1)
        return ((1.0 - self.smoothing) * nll + self.smoothing * smooth).mean()


def train_one_epoch(model, loader, criterion, optimizer):
    total = 0.0
    for batch in loader:
        optimizer.zero_grad()
        loss = criterion(model(batch["inputs"]), batch["targets"])
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_classes": 5, "batch_size": 8, "smoothing": 0.1}
    loader = DataLoader(TinyImageSet(num_classes=cfg["num_classes"]), batch_size=cfg["batch_size"], collate_fn=MixupCutmixCollator(cfg["num_classes"]))
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, cfg["num_classes"]))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    print("epoch loss:", train_one_epoch(model, loader, SmoothCELoss(cfg["smoothing"]), opt))
