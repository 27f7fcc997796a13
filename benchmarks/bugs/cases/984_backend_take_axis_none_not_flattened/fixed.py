import torch
from jaxtyping import Float, Int
from torch import Tensor


def take(x: Tensor, indices: Tensor, axis: int | None = None) -> Tensor:
    """numpy.take for the torch backend: with axis=None the input is treated as flat."""
    indices = torch.as_tensor(indices, dtype=torch.long, device=x.device)
    if axis is None:
        return x.reshape(-1)[indices]
    return torch.index_select(x, axis, indices.reshape(-1)).reshape(
        x.shape[:axis] + indices.shape + x.shape[axis + 1:])


def peak_locations(heatmaps: Float[Tensor, "k h w"]) -> Int[Tensor, " k"]:
    return heatmaps.flatten(1).argmax(dim=1)


def lift_keypoints(heatmaps: Float[Tensor, "k h w"],
                   depth: Float[Tensor, "h w"]) -> Float[Tensor, "k 3"]:
    k, h, w = heatmaps.shape
    flat = peak_locations(heatmaps)
    z = take(depth, flat)
    ys = torch.div(flat, w, rounding_mode="floor").float()
    xs = (flat % w).float()
    return torch.stack([xs, ys, z], dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    heat = torch.rand(5, 8, 12)
    depth = torch.rand(8, 12) * 4.0 + 1.0
    pts = lift_keypoints(heat, depth)
    for j in range(5):
        best, by, bx = -1.0, 0, 0
        for y in range(8):
            for x in range(12):
                if heat[j, y, x] > best:
                    best, by, bx = heat[j, y, x].item(), y, x
        assert pts[j].tolist() == [float(bx), float(by), depth[by, bx].item()]
    print("ok")
