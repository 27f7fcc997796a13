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
    loss = CE_DiceLoss()(logits, target)
    print("loss:", loss.item())
