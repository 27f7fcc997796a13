import torch
import torch.nn as nn


class DetailHead(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(in_channels, 16, 3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(16, out_channels, 1),
        )

    def forward(self, feats):
        return self.conv(feats)


def ohem_pixel_loss(seg_logits, seg_label, thresh=0.7, min_kept=20):
    logp = seg_logits.log_softmax(dim=1)
    picked = logp.gather(1, seg_label.unsqueeze(1)).squeeze(1)
    prob = picked.exp().flatten()
    nll = -picked.flatten()
    kept = prob < thresh
    if kept.sum() < min_kept:
        kept = prob <= prob.sort().values[min_kept - 1]
    return nll[kept].mean()


def train_step(head, optimizer, images, masks):
    optimizer.zero_grad()
    logits = head(images)
    loss = ohem_pixel_loss(logits, masks)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    head = DetailHead(in_channels=8, out_channels=1)
    opt = torch.optim.SGD(head.parameters(), lr=0.01)
    images = torch.randn(2, 8, 12, 12)
    masks = (torch.rand(2, 12, 12) > 0.5).long()
    print(train_step(head, opt, images, masks))
