import torch
import torch.nn as nn
from jaxtyping import Float, Int


class DigitConvNet(nn.Module):
    def __init__(self, n_classes: int = 10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 5), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.fc = nn.Linear(16 * 4 * 4, n_classes)

    def forward(self, x: Float[torch.Tensor, "batch 1 28 28"]) -> Float[torch.Tensor, "batch classes"]:
        h = self.features(x).flatten(1)
        return torch.log_softmax(self.fc(h), dim=0)


def nll(log_probs: Float[torch.Tensor, "batch classes"], target: Int[torch.Tensor, " batch"]) -> Float[torch.Tensor, ""]:
    picked = log_probs.gather(1, target.unsqueeze(1)).squeeze(1)
    return -picked.mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    net = DigitConvNet()
    images = torch.randn(64, 1, 28, 28)
    labels = torch.randint(0, 10, (64,))
    log_probs = net(images)
    print("loss:", nll(log_probs, labels).item())
    print("probability mass per image (first 4):", log_probs.exp().sum(dim=1)[:4])
