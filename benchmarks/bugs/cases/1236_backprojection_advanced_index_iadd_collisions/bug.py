import math
import torch


class RayBackprojector:
    """Adjoint of a nearest-pixel ray sampler for a multichannel 2D volume."""

    def __init__(self, size, num_angles, samples_per_ray):
        self.size = size
        angles = torch.arange(num_angles) * math.pi / num_angles
        t = torch.linspace(-0.5, 0.5, samples_per_ray) * (size - 1)
        offsets = torch.linspace(-0.4, 0.4, 9) * (size - 1)
        c = (size - 1) / 2
        # sample positions of every ray (angle, offset) along its length
        ang = angles[:, None, None]
        off = offsets[None, :, None]
        tt = t[None, None, :]
        x = c + off * torch.cos(ang) - tt * torch.sin(ang)
        y = c + off * torch.sin(ang) + tt * torch.cos(ang)
        self.x = torch.round(x).long().clamp(0, size - 1).flatten()
        self.y = torch.round(y).long().clamp(0, size - 1).flatten()
        self.ray_id = torch.arange(num_angles * 9).repeat_interleave(samples_per_ray)

    def forward(self, volume):
        samples = volume[:, self.y, self.x]
        return torch.zeros(volume.shape[0], int(self.ray_id.max()) + 1).index_add_(1, self.ray_id, samples)

    def adjoint(self, sinogram, channels):
        volume = torch.zeros(channels, self.size, self.size)
        volume[:, self.y, self.x] += sinogram[:, self.ray_id]
        return volume


if __name__ == "__main__":
    torch.manual_seed(0)
    op = RayBackprojector(size=24, num_angles=6, samples_per_ray=40)
    vol = torch.rand(3, 24, 24)
    sino = torch.rand(3, 6 * 9)
    # adjoint test: <A v, s> should equal <v, A^T s>
    lhs = (op.forward(vol) * sino).sum().item()
    rhs = (vol * op.adjoint(sino, 3)).sum().item()
    print(f"<Av, s> = {lhs:.3f}   <v, A^T s> = {rhs:.3f}")
