import torch
import torch.nn as nn
import torch.nn.functional as F


class BCELoss(nn.Module):
    def __init__(self, ignore_index=255, edge_label=False):
        super().__init__()
        self.ignore_index = ignore_index
        self.edge_label = edge_label
        self.EPS = 1e-10

    def forward(self, logit, label):
        # logit: [N, C, H, W], label: [N, H, W] with class ids and ignore_index for padded pixels
        num_classes = logit.shape[1]
        mask = (label != self.ignore_index)                        # [N, H, W]
        label = torch.where(mask, label, torch.zeros_like(label))
        label = F.one_hot(label, num_classes)                       # [N, H, W, C]
        label = label.permute(0, 3, 1, 2).float()                   # [N, C, H, W]
        mask = mask.unsqueeze(1).float()                            # [N, 1, H, W]
        loss = F.binary_cross_entropy_with_logits(logit, label, reduction="none")
        loss = loss * mask
        return loss.sum() / (mask.sum() * num_classes + self.EPS)


def random_rotate_label(label, ignore_index=255):
    # label: [N, H, W]; rotation by 90 degrees then pad a border like the geometric augmentations do
    label = torch.rot90(label, 1, dims=(1, 2))
    return F.pad(label[:, 1:-1, 1:-1], (1, 1, 1, 1), value=ignore_index)


if __name__ == "__main__":
    torch.manual_seed(0)
    logit = torch.randn(2, 2, 8, 8)                                 # [N, C, H, W]
    label = random_rotate_label(torch.randint(0, 2, (2, 8, 8)))     # [N, H, W]
    criterion = BCELoss(ignore_index=255)
    loss = criterion(logit, label)
    total, count = 0.0, 0
    for n in range(2):
        for y in range(8):
            for x in range(8):
                c = int(label[n, y, x])
                if c == 255:
                    continue
                for k in range(2):
                    z, t = logit[n, k, y, x].item(), float(k == c)
                    total += F.binary_cross_entropy_with_logits(torch.tensor(z), torch.tensor(t)).item()
                count += 2
    assert abs(loss.item() - total / count) < 1e-5
    print("ok")
