import torch
from torch import nn


def uniform_temporal_subsample(x, num_samples, temporal_dim=-3):
    """Uniformly pick ``num_samples`` frames along ``temporal_dim``.

    When the clip is shorter than ``num_samples`` the frames are repeated
    (nearest-neighbour interpolation).
    """
    t = x.shape[temporal_dim]
    assert num_samples > 0 and t > 0
    if num_samples > t:
        # nearest-neighbour upsampling: frame i covers [i * n / t, (i + 1) * n / t)
        indices = torch.div(torch.arange(num_samples) * t, num_samples, rounding_mode="floor")
    else:
        indices = torch.linspace(0, t - 1, num_samples)
        indices = torch.clamp(indices, 0, t - 1).long()
    return torch.index_select(x, temporal_dim, indices)


class UniformTemporalSubsample(nn.Module):
    def __init__(self, num_samples, temporal_dim=-3):
        super().__init__()
        self.num_samples = num_samples
        self.temporal_dim = temporal_dim

    def forward(self, x):
        return uniform_temporal_subsample(x, self.num_samples, self.temporal_dim)


def build_clip_transform(cfg):
    return UniformTemporalSubsample(cfg["num_frames"], cfg.get("temporal_dim", -3))


def frame_ids(cfg, clip_len):
    # every frame is filled with its own index so that the selection can be read back
    video = torch.arange(clip_len, dtype=torch.float32)[None, :, None, None].expand(3, clip_len, 4, 4)
    out = build_clip_transform(cfg)(video)
    return out[0, :, 0, 0].long().tolist()


if __name__ == "__main__":
    for clip_len, n in [(4, 5), (4, 6), (4, 7), (4, 8), (4, 9), (5, 8), (3, 16)]:
        cfg = {"num_frames": n, "temporal_dim": 1}
        expected = [i * clip_len // n for i in range(n)]
        assert frame_ids(cfg, clip_len) == expected, (clip_len, n, frame_ids(cfg, clip_len))
    for clip_len, n in [(10, 4), (16, 8), (4, 4)]:
        cfg = {"num_frames": n, "temporal_dim": 1}
        expected = [int(i * (clip_len - 1) / (n - 1)) for i in range(n)]
        assert frame_ids(cfg, clip_len) == expected, (clip_len, n)
    print("ok")
