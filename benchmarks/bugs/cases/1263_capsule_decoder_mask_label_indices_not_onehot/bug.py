import torch
import torch.nn as nn
import torch.nn.functional as F


class ReconstructionDecoder(nn.Module):
    def __init__(self, num_classes=10, capsule_dim=16, out_pixels=784):
        super().__init__()
        self.num_classes = num_classes
        self.net = nn.Sequential(
            nn.Linear(num_classes * capsule_dim, 64),
            nn.ReLU(),
            nn.Linear(64, out_pixels),
            nn.Sigmoid(),
        )

    def forward(self, capsules, y=None):
        if y is None:
            lengths = capsules.norm(dim=-1)
            _, winner = lengths.max(dim=1)
            y = torch.eye(self.num_classes).index_select(0, winner)
        masked = capsules * y[:, :, None]
        return self.net(masked.reshape(capsules.size(0), -1))


def margin_and_reconstruction_loss(decoder, capsules, images, labels):
    lengths = capsules.norm(dim=-1)
    onehot = F.one_hot(labels, decoder.num_classes).float()
    margin = onehot * F.relu(0.9 - lengths) ** 2 + 0.5 * (1 - onehot) * F.relu(lengths - 0.1) ** 2
    recon = decoder(capsules, labels)
    recon_loss = ((recon - images.view(images.size(0), -1)) ** 2).sum(dim=1)
    return (margin.sum(dim=1) + 0.0005 * recon_loss).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = ReconstructionDecoder(num_classes=10, capsule_dim=16, out_pixels=784)
    capsules = torch.randn(4, 10, 16) * 0.3
    images = torch.rand(4, 1, 28, 28)
    labels = torch.tensor([3, 0, 7, 7])
    loss = margin_and_reconstruction_loss(decoder, capsules, images, labels)
    print(loss)
