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
    bin_offset = ((x - cfg.vmin) / cfg.bin_size - bin_idx.float()).unsqueeze(-1)
    soft_two_hot = torch.zeros(*x.shape, cfg.num_bins, device=x.device)
    soft_two_hot.scatter_(2, bin_idx.unsqueeze(-1), 1 - bin_offset)
    soft_two_hot.scatter_(2, (bin_idx.unsqueeze(-1) + 1) % cfg.num_bins, bin_offset)
    return soft_two_hot


def soft_ce(pred, target, cfg):
    """Cross entropy between predicted reward logits and two-hot targets."""
    return -(two_hot(target, cfg) * F.log_softmax(pred, dim=-1)).sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = TDMPC2Config()
    rewards = torch.randn(5, 8) * 3  # one reward per (horizon step, batch element)
    targets = two_hot(rewards, cfg)
    assert targets.shape == (5, 8, cfg.num_bins)
    for h in range(5):
        for b in range(8):
            v = min(max(float(symlog(rewards[h, b])), cfg.vmin), cfg.vmax)
            pos = (v - cfg.vmin) / cfg.bin_size
            lo = int(pos // 1)
            ref = [0.0] * cfg.num_bins
            ref[lo] += 1 - (pos - lo)
            ref[(lo + 1) % cfg.num_bins] += pos - lo
            assert torch.allclose(targets[h, b], torch.tensor(ref), atol=1e-5)
    print("ok")
