import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class SemSegDataset(Dataset):
    """Semantic segmentation samples for a large-vocabulary benchmark.

    Each item is a dict with:
        image (Tensor): float image of shape (3, H, W).
        sem_seg (Tensor): per-pixel category ids of shape (H, W).
    """

    def __init__(self, images, label_maps):
        self.images = images
        self.label_maps = label_maps

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        # annotations are kept as compact 8-bit maps, like the PNG files
        sem_seg = torch.as_tensor(self.label_maps[i]).to(torch.uint8)
        return {"image": self.images[i], "sem_seg": sem_seg}


def pixel_nll(logits, sem_seg):
    """Mean negative log-likelihood of the annotated category.

    Args:
        logits (Tensor): class scores of shape (B, K, H, W).
        sem_seg (Tensor): category ids of shape (B, H, W).

    Returns:
        Tensor: scalar loss.
    """
    logp = F.log_softmax(logits, dim=1)
    picked = logp.gather(1, sem_seg.long().unsqueeze(1))
    return -picked.mean()


def main():
    torch.manual_seed(0)
    num_classes = 300  # ADE-style vocabulary
    images = [torch.randn(3, 4, 4) for _ in range(2)]
    label_maps = [torch.randint(0, num_classes, (4, 4)) for _ in range(2)]
    loader = DataLoader(SemSegDataset(images, label_maps), batch_size=2)
    head = torch.nn.Conv2d(3, num_classes, kernel_size=1)
    batch = next(iter(loader))
    logits = head(batch["image"])
    loss = pixel_nll(logits, batch["sem_seg"])
    truth = torch.stack(label_maps)
    print("largest annotated id:", int(truth.max()), "largest id seen by the loss:", int(batch["sem_seg"].max()))
    print("pixels whose class changed:", int((batch["sem_seg"].long() != truth).sum()), "of", truth.numel())
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
