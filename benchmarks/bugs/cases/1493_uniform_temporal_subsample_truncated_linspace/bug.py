import torch
from torch import nn


def uniform_temporal_subsample(x, num_samples, temporal_dim=-3):
    """Uniformly pick ``num_samples`` frames along ``temporal_dim``.

    When the clip is shorter than ``num_samples`` the frames are repeated
    (nearest-neighbour interpolation).
    """
    t = x.shape[temporal_dim]
    assert num_samples > 0 and t > 0
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
    cfg = {"num_frames": 8, "temporal_dim": 1}
    for clip_len in (4, 5):
        got = frame_ids(cfg, clip_len)
        per_frame = [got.count(i) for i in range(clip_len)]
        print(f"clip of {clip_len} frames -> {got}  repeats per frame {per_frame}")
