from dataclasses import dataclass

import torch
import torch.nn.functional as F


@dataclass
class TDMPC2Config:
    num_bins: int = 101
    vmin: float = -10.0
    vmax: float = 10.0

    @property
    def bin_size(self):
        return (self.vmax - self.vmin) / (self.num_bins - 1)


def symlog(x):
    return torch.sign(x) * torch.log(1 + torch.abs(x))


def two_hot(x, cfg):
    """Converts a batch of scalars to soft two-hot encoded targets for discrete regression."""
    x = torch.clamp(symlog(x), cfg.vmin, cfg.vmax)
    bin_idx = torch.floor((x - cfg.vmin) / cfg.bin_size).long()
    bin_offset = (x - cfg.vmin) / cfg.bin_size - bin_idx.float()
    soft_two_hot = torch.zeros(x.size(0), cfg.num_bins, device=x.device)
    soft_two_hot.scatter_(1, bin_idx, 1 - bin_offset)
    soft_two_hot.scatter_(1, (bin_idx + 1) % cfg.num_bins, bin_offset)
    return soft_two_hot


def soft_ce(pred, target, cfg):
    """Cross entropy between predicted reward logits and two-hot targets."""
    return -(two_hot(target, cfg) * F.log_softmax(pred, dim=-1)).sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = TDMPC2Config()
    rewards = torch.randn(5, 8) * 3  # one reward per (horizon step, batch element)
    targets = two_hot(rewards, cfg)
    print("two-hot targets:", tuple(targets.shape), "mass per row:", targets.sum(-1).tolist())
