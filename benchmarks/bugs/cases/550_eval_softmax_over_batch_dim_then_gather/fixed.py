import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class TinyCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.classifier = nn.Linear(8 * 4 * 4, num_classes)

    def forward(self, x):  # x: [B, 1, 28, 28]
        return self.classifier(self.features(x).flatten(1))  # [B, 10]


@torch.inference_mode()
def collect_predictions(model, loader):
    preds, true_probs = [], []
    for X, y in loader:  # X: [B, 1, 28, 28], y: [B]
        y_logit = model(X)  # [B, 10]
        y_prob = torch.softmax(y_logit, dim=1)  # [B, 10]
        preds.append(y_prob.argmax(dim=1))  # [B]
        true_probs.append(y_prob.gather(1, y.unsqueeze(1)).squeeze(1))  # [B]
    return torch.cat(preds), torch.cat(true_probs)


def reliability(preds, true_probs, targets):
    # mean confidence in the true class, split by correct / incorrect predictions
    correct = preds == targets
    return true_probs[correct].mean().item(), true_probs[~correct].mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    X = torch.randn(64, 1, 28, 28)
    y = torch.randint(0, 10, (64,))
    loader = DataLoader(TensorDataset(X, y), batch_size=32)
    model = TinyCNN().eval()
    preds, true_probs = collect_predictions(model, loader)
    with torch.no_grad():
        logits = model(X)
    for i in range(64):
        row = logits[i]
        p = torch.exp(row - row.max())
        p = p / p.sum()
        assert abs(true_probs[i].item() - p[int(y[i])].item()) < 1e-6
        assert int(preds[i]) == int(torch.argmax(p))
    print("ok")
