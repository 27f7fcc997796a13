import torch
import torch.nn as nn
import torch.nn.functional as F


def make_one_hot(labels, classes):
    one_hot = torch.zeros(labels.size()[0], classes, labels.size()[2], labels.size()[3], device=labels.device)
    target = one_hot.scatter_(1, labels.data, 1)
    return target


class DiceLoss(nn.Module):
    def __init__(self, smooth=1.0, ignore_index=255):
        super().__init__()
        self.ignore_index = ignore_index
        self.smooth = smooth

    def forward(self, output, target):
        if self.ignore_index not in range(target.min(), target.max()):
            if (target == self.ignore_index).sum() > 0:
                target[target == self.ignore_index] = target.min()
        target = make_one_hot(target.unsqueeze(dim=1), classes=output.size()[1])
        output = F.softmax(output, dim=1)
        output_flat = output.contiguous().view(-1)
        target_flat = target.contiguous().view(-1)
        intersection = (output_flat * target_flat).sum()
        loss = 1 - ((2.0 * intersection + self.smooth) / (output_flat.sum() + target_flat.sum() + self.smooth))
        return loss


class CE_DiceLoss(nn.Module):
    def __init__(self, smooth=1, ignore_index=255):
        super().__init__()
        self.dice = DiceLoss(smooth=smooth, ignore_index=ignore_index)
        self.cross_entropy = nn.CrossEntropyLoss(ignore_index=ignore_index)

    def forward(self, output, target):
        return self.cross_entropy(output, target) + self.dice(output, target)


def load_voc_like_batch(generator):
    target = torch.randint(0, 4, (2, 24, 24), generator=generator)
    target[:, 10:12, :] = 255  # object boundaries are marked "void"
    target[:, :, 5] = 255
    return target


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    logits = torch.randn(2, 4, 24, 24, generator=gen)
    target = load_voc_like_batch(gen)
    original = target.clone()
    loss = CE_DiceLoss()(logits, target)

    # reference: cross entropy over the labelled pixels, dice with the void pixels
    # folded into the lowest label, as the loss does
    probs = F.softmax(logits, dim=1)
    ce_sum, ce_n, inter, p_sum, t_sum = 0.0, 0, 0.0, 0.0, 0.0
    low = min(v for v in original.flatten().tolist() if v != 255)
    for b in range(2):
        for i in range(24):
            for j in range(24):
                lab = original[b, i, j].item()
                if lab != 255:
                    ce_sum += -F.log_softmax(logits[b, :, i, j], dim=0)[lab].item()
                    ce_n += 1
                dice_lab = low if lab == 255 else lab
                inter += probs[b, dice_lab, i, j].item()
                p_sum += probs[b, :, i, j].sum().item()
                t_sum += 1.0
    ref = ce_sum / ce_n + 1 - (2 * inter + 1) / (p_sum + t_sum + 1)
    assert abs(loss.item() - ref) < 1e-4
    print("ok")
