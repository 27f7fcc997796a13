import torch
import torch.nn as nn


class UNet3DLite(nn.Module):
    def __init__(self, in_channels, num_classes, width=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv3d(in_channels, width, 3, padding=1), nn.ReLU())
        self.head = nn.Conv3d(width, num_classes, 1)

    def forward(self, x):
        return self.head(self.enc(x))


class FocalLoss(nn.Module):
    def __init__(self, alpha=0.75, gamma=2.0):
        super().__init__()
        self.alpha = alpha
        self.gamma = gamma

    def forward(self, logits, targets_onehot):
        probs = torch.softmax(logits, dim=1)
        pt = (probs * targets_onehot).sum(dim=1).clamp_min(1e-6)
        weight = torch.where(targets_onehot[:, 1] > 0, self.alpha, 1 - self.alpha)
        return (-weight * (1 - pt) ** self.gamma * pt.log()).mean()


def one_hot_targets(targets, num_classes):
    onehot = torch.zeros(targets.shape[0], num_classes, *targets.shape[-3:], dtype=torch.float32)
    return onehot.scatter_(1, targets.unsqueeze(1).long(), 1.0)


def train_step(model, criterion, optimizer, batch, num_classes):
    images, labels = batch
    logits = model(images)
    loss = criterion(logits, one_hot_targets(labels, num_classes))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def make_batch(generator):
    images = torch.randn(2, 3, 4, 8, 8, generator=generator)  # T2W, ADC, DWI
    labels = (torch.rand(2, 1, 4, 8, 8, generator=generator) > 0.8).to(torch.uint8)  # binary lesion mask
    return images, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    model = UNet3DLite(in_channels=3, num_classes=2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    batch = make_batch(torch.Generator().manual_seed(0))
    print("loss:", train_step(model, FocalLoss(), optimizer, batch, num_classes=2))
