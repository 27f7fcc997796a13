import torch
import torch.nn as nn
import torch.nn.functional as F


def to_one_hot(labels, num_classes, dtype=torch.float, dim=1):
    """Converts integer labels to a one-hot tensor.

    Args:
        labels (`torch.LongTensor` of shape `(N, H, W)`): class index per pixel.
        num_classes (`int`): number of classes C.

    Returns:
        `torch.FloatTensor` of shape `(N, C, H, W)`.
    """
    labels = labels.unsqueeze(dim)
    shape = list(labels.shape)
    shape[dim] = num_classes
    one_hot = torch.zeros(shape, dtype=dtype, device=labels.device)
    return one_hot.scatter_(dim, labels, 1.0)


class Poly1CrossEntropyLoss(nn.Module):
    """Poly-1 loss: cross entropy plus epsilon * (1 - p_t).

    Args:
        num_classes (`int`): number of classes C.
        epsilon (`float`): weight of the polynomial term.
        ignore_index (`int`): label value of pixels that do not contribute.
    """

    def __init__(self, num_classes, epsilon=1.0, ignore_index=255):
        super().__init__()
        self.num_classes = num_classes
        self.epsilon = epsilon
        self.ignore_index = ignore_index

    def forward(self, logits, labels):
        """
        Args:
            logits (`torch.FloatTensor` of shape `(N, C, H, W)`)
            labels (`torch.LongTensor` of shape `(N, H, W)`): values in [0, C) or `ignore_index`.

        Returns:
            `torch.FloatTensor`: mean loss over the labelled pixels.
        """
        labels_onehot = to_one_hot(labels, self.num_classes, dtype=logits.dtype)
        pt = torch.sum(labels_onehot * F.softmax(logits, dim=1), dim=1)
        ce = F.cross_entropy(logits, labels, ignore_index=self.ignore_index, reduction="none")
        poly1 = ce + self.epsilon * (1 - pt)
        valid = labels != self.ignore_index
        return poly1[valid].mean()


class TinySegNet(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, num_classes, 1))

    def forward(self, images):
        return self.body(images)


def load_batch(generator):
    images = torch.randn(2, 3, 6, 6, generator=generator)
    masks = torch.randint(0, 2, (2, 6, 6), generator=generator)
    masks[:, :, 0] = 255  # border pixels are marked 'void' in the annotation
    return images, masks


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinySegNet(num_classes=2)
    criterion = Poly1CrossEntropyLoss(num_classes=2)
    images, masks = load_batch(torch.Generator().manual_seed(0))
    loss = criterion(model(images), masks)
    print("loss:", loss.item())
