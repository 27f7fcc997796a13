import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def pool_frames_to_phones(
    frame_feats: Float[Tensor, "batch frames dim"],
    frame_to_phone: Int[Tensor, "batch frames"],
    num_phones: int,
) -> Float[Tensor, "batch phones dim"]:
    b, _, d = frame_feats.shape
    index = frame_to_phone.unsqueeze(-1).expand(-1, -1, d)
    sums = frame_feats.new_zeros(b, num_phones, d).scatter_add_(1, index, frame_feats)
    counts = torch.zeros(b, num_phones).scatter_add_(1, frame_to_phone, torch.ones_like(frame_to_phone, dtype=torch.float))
    return sums / counts.clamp(min=1).unsqueeze(-1)


class PhoneEncoder(nn.Module):
    def __init__(self, n_mels: int, dim: int):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, dim, kernel_size=3, padding=1)
        self.out = nn.Linear(dim, dim)

    def forward(
        self, mels: Float[Tensor, "batch n_mels frames"], frame_to_phone: Int[Tensor, "batch frames"], num_phones: int
    ) -> Float[Tensor, "batch phones dim"]:
        frames = self.conv(mels).transpose(1, 2)
        return self.out(pool_frames_to_phones(frames, frame_to_phone, num_phones))


def durations_to_alignment(durations: Int[Tensor, "batch phones"]) -> Int[Tensor, "batch frames"]:
    return torch.stack([torch.repeat_interleave(torch.arange(d.numel()), d) for d in durations])


if __name__ == "__main__":
    torch.manual_seed(0)
    durations = torch.tensor([[3, 5, 2, 6], [4, 4, 4, 4]])
    align = durations_to_alignment(durations)
    enc = PhoneEncoder(n_mels=20, dim=16)
    mels = torch.randn(2, 20, 16)
    out = enc(mels, align, 4)
    frames = enc.conv(mels).transpose(1, 2)
    for b in range(2):
        for p in range(4):
            rows = [frames[b, t] for t in range(16) if int(align[b, t]) == p]
            expected = enc.out(torch.stack(rows).mean(0))
            assert torch.allclose(out[b, p], expected, atol=1e-5)
    print("ok")
