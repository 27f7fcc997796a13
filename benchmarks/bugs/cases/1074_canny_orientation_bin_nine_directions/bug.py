import math

import torch
import torch.nn.functional as F
from jaxtyping import Float, Int64


def directional_filters() -> Float[torch.Tensor, "8 1 3 3"]:
    bank = torch.zeros(8, 1, 3, 3)
    offsets = [(1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2)]
    for k, (r, c) in enumerate(offsets):
        bank[k, 0, 1, 1] = 1.0
        bank[k, 0, r, c] = -1.0
    return bank


def orientation_bins(gx: Float[torch.Tensor, "b 1 h w"],
                     gy: Float[torch.Tensor, "b 1 h w"]) -> Int64[torch.Tensor, "b 1 h w"]:
    degrees = torch.atan2(gy, gx) * (180.0 / math.pi) + 180.0
    return torch.round(degrees / 45.0).long()


def non_max_suppression(magnitude: Float[torch.Tensor, "b 1 h w"],
                        gx: Float[torch.Tensor, "b 1 h w"],
                        gy: Float[torch.Tensor, "b 1 h w"]) -> Float[torch.Tensor, "b 1 h w"]:
    responses = F.conv2d(magnitude, directional_filters(), padding=1)   # b 8 h w
    pos = orientation_bins(gx, gy)
    neg = (pos + 4) % 8
    along = torch.gather(responses, 1, pos)
    against = torch.gather(responses, 1, neg)
    keep = (along > 0) & (against > 0)
    return magnitude * keep


if __name__ == "__main__":
    torch.manual_seed(0)
    img = torch.rand(2, 1, 16, 16)
    sobel_x = torch.tensor([[[[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]]])
    gx = F.conv2d(img, sobel_x, padding=1)
    gy = F.conv2d(img, sobel_x.transpose(2, 3), padding=1)
    mag = torch.sqrt(gx ** 2 + gy ** 2)
    thin = non_max_suppression(mag, gx, gy)
    print("edge pixels kept", int((thin > 0).sum()))
