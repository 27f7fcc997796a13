import numpy as np
import torch
import torch.nn.functional as F


def load_label_volume(shape, seed=0):
    # stands in for nib.load(path).get_fdata(): NIfTI voxels come back as float64
    rng = np.random.default_rng(seed)
    labels = np.zeros(shape)
    labels[4:12, 4:12, 4:12] = 1.0
    labels[2:6, 10:14, 2:14] = 2.0
    labels[10:14, 2:6, 6:10] = 3.0
    labels[rng.random(shape) > 0.995] = 4.0
    return labels


def to_one_hot(seg, num_classes):
    # seg: (D, H, W) label ids  ->  (C, D, H, W) float masks
    onehot = F.one_hot(seg, num_classes=num_classes)  # (D, H, W, C)
    return onehot.permute(3, 0, 1, 2).float()


def dice_per_class(moving_onehot, fixed_onehot, eps=1e-5):
    # both (C, D, H, W); returns (C,)
    inter = (moving_onehot * fixed_onehot).flatten(1).sum(1)
    denom = moving_onehot.flatten(1).sum(1) + fixed_onehot.flatten(1).sum(1)
    return (2 * inter + eps) / (denom + eps)


if __name__ == "__main__":
    num_classes = 5  # 4 anatomical structures + background
    fixed = torch.from_numpy(load_label_volume((16, 16, 16), seed=0)).long()
    moving = torch.from_numpy(load_label_volume((16, 16, 16), seed=1)).long()
    # (16, 16, 16) each
    fixed_oh = to_one_hot(fixed, num_classes)[1:]   # drop background -> (4, 16, 16, 16)
    moving_oh = to_one_hot(moving, num_classes)[1:]
    dice = dice_per_class(moving_oh, fixed_oh)
    f, m = fixed.numpy(), moving.numpy()
    for c in range(1, num_classes):
        inter = sum(1 for idx in np.ndindex(f.shape) if f[idx] == c and m[idx] == c)
        total = int((f == c).sum() + (m == c).sum())
        assert abs(dice[c - 1].item() - (2 * inter + 1e-5) / (total + 1e-5)) < 1e-5
    assert fixed_oh.shape == (4, 16, 16, 16)
    print("ok")
