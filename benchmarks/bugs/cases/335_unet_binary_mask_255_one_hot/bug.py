import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyUNet(nn.Module):
    def __init__(self, n_channels, n_classes):
        super().__init__()
        self.n_classes = n_classes
        self.down = nn.Conv2d(n_channels, 8, 3, padding=1)
        self.head = nn.Conv2d(8, n_classes, 1)

    def forward(self, x):
        return self.head(F.relu(self.down(x)))


class SegmentationDataset(torch.utils.data.Dataset):
    def __init__(self, images, masks):
        self.images = images
        self.masks = masks

    @staticmethod
    def preprocess_mask(mask):
        return mask.long()

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.preprocess_mask(self.masks[i])


def dice_loss(logits, true_masks, n_classes, eps=1e-6):
    probs = logits.softmax(dim=1)
    target = F.one_hot(true_masks, n_classes).permute(0, 3, 1, 2).float()
    inter = (probs * target).sum(dim=(2, 3))
    union = probs.sum(dim=(2, 3)) + target.sum(dim=(2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def train_step(net, batch, optimizer):
    images, true_masks = batch
    logits = net(images)
    loss = dice_loss(logits, true_masks, net.n_classes) + F.cross_entropy(logits, true_masks)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    images = torch.randn(4, 3, 16, 16)
    masks = (torch.rand(4, 16, 16) > 0.5).to(torch.uint8) * 255  # binary PNG masks
    loader = torch.utils.data.DataLoader(SegmentationDataset(images, masks), batch_size=2)
    net = TinyUNet(n_channels=3, n_classes=2)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for batch in loader:
        print("loss:", train_step(net, batch, optimizer))
