import torch
import torch.nn as nn
import torch.nn.functional as F


class SwitchUnpool2d(nn.Module):
    """Transpose of a max-pool layer: route each pooled value back to its recorded switch.

    Used by DeconvNet-style visualisation to project top activations back to the
    input of the pooling layer.

    Args:
        pooled (Tensor): shape (B, C, Ho, Wo), values to project back.
        switches (LongTensor): shape (B, C, Ho, Wo), flat positions in H*W returned by
            ``F.max_pool2d(..., return_indices=True)``.
        size (tuple): (H, W) of the pooling layer's input.

    Returns:
        Tensor: shape (B, C, H, W).
    """

    def forward(self, pooled, switches, size):
        B, C = pooled.shape[:2]
        H, W = size
        canvas = pooled.new_zeros(B, C, H * W)
        canvas.scatter_(2, switches.flatten(2), pooled.flatten(2))
        return canvas.view(B, C, H, W)


class PoolStage(nn.Module):
    """conv -> relu -> overlapping 3x3/2 max-pool, keeping the switches.

    Args:
        x (Tensor): shape (B, C_in, H, W).

    Returns:
        tuple: pooled (B, C_out, H/2, W/2), switches (same shape), pre-pool size (H, W).
    """

    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)

    def forward(self, x):
        a = F.relu(self.conv(x))
        pooled, switches = F.max_pool2d(a, 3, stride=2, padding=1, return_indices=True)
        return pooled, switches, a.shape[-2:]


if __name__ == "__main__":
    torch.manual_seed(0)
    stage, unpool = PoolStage(3, 4), SwitchUnpool2d()
    with torch.no_grad():
        pooled, switches, size = stage(torch.randn(2, 3, 12, 12))
        signal = torch.rand_like(pooled)
        projected = unpool(signal, switches, size)
    flat = switches.flatten(2)
    repeated = sum(flat.size(2) - flat[b, c].unique().numel() for b in range(2) for c in range(4))
    print("repeated switches:", repeated)
    print("mass pooled:", signal.sum().item(), "mass projected:", projected.sum().item())
