import torch
from torch import nn


class PointPillarsScatter(nn.Module):
    """Point Pillar's Scatter.

    Converts learned features from dense tensor to sparse pseudo image.

    Args:
        in_channels (int): Channels of input features.
        output_shape (list[int]): Required output shape of features, ``(ny, nx)``.
    """

    def __init__(self, in_channels, output_shape):
        super().__init__()
        self.output_shape = output_shape
        self.ny = output_shape[0]
        self.nx = output_shape[1]
        self.in_channels = in_channels

    def forward(self, voxel_features, coors, batch_size=None):
        """Forward function to scatter features."""
        if batch_size is not None:
            return self.forward_batch(voxel_features, coors, batch_size)
        return self.forward_single(voxel_features, coors)

    def forward_single(self, voxel_features, coors):
        """Scatter features of a single sample.

        Args:
            voxel_features (torch.Tensor): Voxel features in shape (N, C).
            coors (torch.Tensor): Coordinates of each voxel in shape (N, 4).
                The first column indicates the sample ID, followed by
                ``(z, y, x)``.

        Returns:
            torch.Tensor: Pseudo image in shape (1, C, ny, nx).
        """
        canvas = torch.zeros(
            self.in_channels,
            self.nx * self.ny,
            dtype=voxel_features.dtype,
            device=voxel_features.device)

        indices = coors[:, 2] * self.nx + coors[:, 3]
        indices = indices.long()
        voxels = voxel_features.t()
        # Now scatter the blob back to the canvas.
        canvas[:, indices] = voxels
        canvas = canvas.view(1, self.in_channels, self.ny, self.nx)
        return canvas

    def forward_batch(self, voxel_features, coors, batch_size):
        """Scatter features of a batch.

        Args:
            voxel_features (torch.Tensor): Voxel features in shape (N, C).
            coors (torch.Tensor): Coordinates of each voxel in shape (N, 4).
                The first column indicates the sample ID, followed by
                ``(z, y, x)``.
            batch_size (int): Number of samples in the current batch.

        Returns:
            torch.Tensor: Pseudo images in shape (B, C, ny, nx).
        """
        batch_canvas = []
        for batch_itt in range(batch_size):
            canvas = torch.zeros(
                self.in_channels,
                self.nx * self.ny,
                dtype=voxel_features.dtype,
                device=voxel_features.device)
            batch_mask = coors[:, 0] == batch_itt
            this_coors = coors[batch_mask, :]
            indices = this_coors[:, 2] * self.nx + this_coors[:, 3]
            indices = indices.type(torch.long)
            voxels = voxel_features[batch_mask, :].t()
            canvas[:, indices] = voxels
            batch_canvas.append(canvas)
        batch_canvas = torch.stack(batch_canvas, 0)
        return batch_canvas.view(batch_size, self.in_channels, self.ny, self.nx)


def random_pillars(num_pillars, ny, nx, channels, generator):
    flat = torch.randperm(ny * nx, generator=generator)[:num_pillars]
    ys, xs = flat // nx, flat % nx
    coors = torch.stack(
        [torch.zeros_like(ys), torch.zeros_like(ys), ys, xs], dim=1).int()
    feats = torch.randn(num_pillars, channels, generator=generator)
    return feats, coors


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    scatter = PointPillarsScatter(in_channels=16, output_shape=[24, 32])
    feats, coors = random_pillars(120, 24, 32, 16, g)

    pseudo_image = scatter(feats, coors)

    ref = torch.zeros(1, 16, 24, 32)
    for f, (_, _, y, x) in zip(feats, coors.tolist()):
        for c in range(16):
            ref[0, c, y, x] = f[c]
    occupied = (pseudo_image.abs().sum(1) > 0).sum().item()
    print("occupied BEV cells: got", occupied, "expected", coors.shape[0])
    assert torch.equal(pseudo_image, ref)
    batched = scatter(feats, coors, batch_size=1)
    assert torch.equal(batched, ref)
    print("ok")
