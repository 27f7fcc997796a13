import torch
import torch.nn as nn
import torch.nn.functional as F


class SimpleNet(nn.Module):
    def __init__(self, in_features=48, num_classes=2):
        super().__init__()
        self.fc1 = nn.Linear(in_features, 32)
        self.fc2 = nn.Linear(32, num_classes)

    def forward(self, x):
        # x: [B, 3, 4, 4] -> logits [B, num_classes]
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


@torch.no_grad()
def evaluate(model, images, labels):
    logits = model(images)                                  # [B, C]
    probs = F.softmax(logits, dim=1)                        # [B, C]
    p_true = probs.gather(1, labels.unsqueeze(1)).squeeze(1)  # [B]
    preds = probs.argmax(dim=1)                             # [B]
    return {
        "accuracy": (preds == labels).float().mean().item(),
        "nll": -p_true.clamp_min(1e-12).log().mean().item(),
        "mean_confidence": p_true.mean().item(),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SimpleNet().eval()
    images = torch.randn(16, 3, 4, 4)                       # [B, 3, 4, 4]
    labels = torch.randint(0, 2, (16,))                     # [B]
    stats = evaluate(model, images, labels)
    with torch.no_grad():
        logits = model(images)
    nll, conf, correct = 0.0, 0.0, 0
    for b in range(16):
        row = [float(v) for v in logits[b]]
        m = max(row)
        z = sum(torch.exp(torch.tensor(v - m)).item() for v in row)
        p = torch.exp(torch.tensor(row[int(labels[b])] - m)).item() / z
        nll -= torch.log(torch.tensor(p)).item()
        conf += p
        correct += int(row.index(m) == int(labels[b]))
    assert abs(stats["nll"] - nll / 16) < 1e-5
    assert abs(stats["mean_confidence"] - conf / 16) < 1e-5
    assert abs(stats["accuracy"] - correct / 16) < 1e-6
    print("ok")
