import torch
from torch import nn
import torch.nn.functional as F


def exists(val):
    return val is not None


def pick_video_frame(video, frame_indices):
    # video: (b, c, f, h, w), frame_indices: (b, 1)
    batch = video.shape[0]
    video = video.permute(0, 2, 1, 3, 4)              # (b, f, c, h, w)
    batch_indices = torch.arange(batch).unsqueeze(1)  # (b, 1)
    images = video[batch_indices, frame_indices]      # (b, 1, c, h, w)
    images = images.squeeze(1)                        # (b, c, h, w)
    return images


class Discriminator(nn.Module):
    def __init__(self, channels=3, dim=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(channels, dim, 3, padding=1),     # (b, dim, h, w)
            nn.LeakyReLU(0.1),
            nn.Conv2d(dim, dim * 2, 4, stride=2, padding=1),  # (b, 2 dim, h/2, w/2)
            nn.LeakyReLU(0.1),
            nn.Conv2d(dim * 2, 1, 3, padding=1),        # (b, 1, h/2, w/2)
        )

    def forward(self, images):
        return self.net(images).mean(dim=(1, 2, 3))    # (b,)


class CViViTLosses(nn.Module):
    def __init__(self, channels=3):
        super().__init__()
        self.discr = Discriminator(channels)

    def forward(self, video, recon_video, mask=None):
        b, c, f, h, w = video.shape

        # prepare a random frame index to be chosen for discriminator and perceptual loss
        pick_frame_logits = torch.randn(b, f)               # (b, f)

        if exists(mask):
            mask_value = -torch.finfo(pick_frame_logits.dtype).max
            pick_frame_logits = pick_frame_logits.masked_fill(~mask, mask_value)

        frame_indices = pick_frame_logits.topk(1, dim=-1).indices   # (b, 1)

        real_frames = pick_video_frame(video, frame_indices)         # (b, c, h, w)
        fake_frames = pick_video_frame(recon_video, frame_indices)   # (b, c, h, w)

        recon_loss = F.mse_loss(video, recon_video)
        gen_loss = -self.discr(fake_frames).mean()
        discr_loss = (F.relu(1 + self.discr(fake_frames.detach())) +
                      F.relu(1 - self.discr(real_frames))).mean()
        return recon_loss, gen_loss, discr_loss, real_frames


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, channels, frames, size = 2, 3, 5, 16
    video = torch.randn(batch, channels, frames, size, size)
    recon_video = video + 0.1 * torch.randn_like(video)
    # variable length clips: the second video only has 3 real frames
    frame_mask = torch.tensor([[True] * 5, [True] * 3 + [False] * 2])

    losses = CViViTLosses(channels)
    torch.manual_seed(1)
    recon_loss, gen_loss, discr_loss, picked = losses(video, recon_video, mask=frame_mask)
    torch.manual_seed(1)
    logits = torch.randn(batch, frames)
    for i in range(batch):
        allowed = [t for t in range(frames) if bool(frame_mask[i, t])]
        best = max(allowed, key=lambda t: logits[i, t].item())
        assert torch.equal(picked[i], video[i, :, best])
    assert picked.shape == (batch, channels, size, size)
    assert torch.isfinite(gen_loss) and torch.isfinite(discr_loss)
    print("ok")
