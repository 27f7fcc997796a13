import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor
from torch.utils.data import Dataset

IGNORE = 255


class InstrumentFrames(Dataset):
    def __init__(self, n, h, w, class_num):
        g = torch.Generator().manual_seed(0)
        self.masks = torch.randint(0, class_num, (n, h, w), generator=g)
        self.masks[:, 0, :] = IGNORE  # unlabelled border rows from the annotation tool
        self.images = torch.randn(n, 3, h, w, generator=g)

    def __len__(self):
        return len(self.masks)

    def __getitem__(self, i):
        return self.images[i], self.masks[i]


class DiceLoss:
    def __init__(self, class_num: int):
        self.class_num = class_num

    def __call__(self, logits: Float[Tensor, "b c h w"], label: Int[Tensor, "b h w"]) -> Float[Tensor, ""]:
        valid = (label != IGNORE).unsqueeze(1).float()
        probs = logits.softmax(dim=1) * valid
        safe = torch.where(label == IGNORE, torch.zeros_like(label), label)
        target = F.one_hot(safe.to(torch.int64), num_classes=self.class_num)
        target = target.permute(0, 3, 1, 2).float() * valid
        inter = (probs * target).sum(dim=(0, 2, 3))
        denom = probs.sum(dim=(0, 2, 3)) + target.sum(dim=(0, 2, 3))
        return 1 - (2 * inter / denom.clamp_min(1e-6)).mean()


if __name__ == "__main__":
    ds = InstrumentFrames(4, 6, 6, class_num=5)
    imgs, masks = zip(*[ds[i] for i in range(len(ds))])
    logits = torch.randn(4, 5, 6, 6)
    loss = DiceLoss(5)(logits, torch.stack(masks))
    lab = torch.stack(masks)
    p = logits.softmax(dim=1)
    dices = []
    for c in range(5):
        inter = psum = tsum = 0.0
        for b in range(4):
            for y in range(6):
                for x in range(6):
                    if lab[b, y, x] == IGNORE:
                        continue
                    t = 1.0 if lab[b, y, x] == c else 0.0
                    inter += p[b, c, y, x].item() * t
                    psum += p[b, c, y, x].item()
                    tsum += t
        dices.append(2 * inter / max(psum + tsum, 1e-6))
    assert abs(loss.item() - (1 - sum(dices) / 5)) < 1e-5
    print("ok")
