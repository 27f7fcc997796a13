import torch
import torch.nn as nn
import torch.nn.functional as F


class LabelSmoothingCrossEntropy(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing = smoothing
        self.confidence = 1.0 - smoothing

    def forward(self, x, target):
        logprobs = F.log_softmax(x, dim=-1)
        nll_loss = -logprobs.gather(dim=-1, index=target.unsqueeze(1))
        nll_loss = nll_loss.squeeze(1)
        smooth_loss = -logprobs.mean(dim=-1)
        loss = self.confidence * nll_loss + self.smoothing * smooth_loss
        return loss.mean()


class Mixup:
    def __init__(self, alpha, num_classes):
        self.alpha = alpha
        self.num_classes = num_classes

    def __call__(self, x, target):
        lam = float(torch.distributions.Beta(self.alpha, self.alpha).sample())
        perm = torch.randperm(x.size(0))
        one_hot = F.one_hot(target, self.num_classes).float()
        return lam * x + (1 - lam) * x[perm], lam * one_hot + (1 - lam) * one_hot[perm]


def build_training(cfg):
    model = nn.Sequential(nn.Flatten(), nn.Linear(cfg["in_features"], cfg["num_classes"]))
    mixup = Mixup(cfg["mixup_alpha"], cfg["num_classes"]) if cfg["mixup_alpha"] > 0 else None
    criterion = LabelSmoothingCrossEntropy(smoothing=cfg["label_smooth"])
    return model, mixup, criterion


def train_one_epoch(model, mixup, criterion, batches, lr):
    for images, labels in batches:
        if mixup is not None:
            images, labels = mixup(images, labels)
        loss = criterion(model(images), labels)
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p -= lr * p.grad
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"in_features": 48, "num_classes": 5, "mixup_alpha": 0.8, "label_smooth": 0.1, "lr": 0.1}
    batches = [(torch.randn(8, 3, 4, 4), torch.randint(0, 5, (8,))) for _ in range(3)]
    model, mixup, criterion = build_training(cfg)
    print("last loss:", train_one_epoch(model, mixup, criterion, batches, cfg["lr"]))
