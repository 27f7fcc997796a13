import torch
from jaxtyping import Float, Int
from torch import Tensor


def events_to_frames(
    xs: Int[Tensor, "n"],
    ys: Int[Tensor, "n"],
    ps: Int[Tensor, "n"],
    height: int,
    width: int,
) -> Float[Tensor, "2 h w"]:
    """Accumulate an event stream into one count image per polarity."""
    frames = torch.zeros(2, height, width)
    frames[ps, ys, xs] += 1.0
    return frames


def normalized_frames(frames: Float[Tensor, "2 h w"]) -> Float[Tensor, "2 h w"]:
    peak = frames.flatten(1).amax(dim=1).clamp(min=1.0)
    return frames / peak[:, None, None]


if __name__ == "__main__":
    torch.manual_seed(0)
    n = 200
    xs = torch.randint(0, 6, (n,))
    ys = torch.randint(0, 4, (n,))
    ps = torch.randint(0, 2, (n,))
    frames = events_to_frames(xs, ys, ps, height=4, width=6)
    print("events:", n, "counted:", int(frames.sum().item()))
    print("max count per pixel:", frames.max().item())
    print(normalized_frames(frames)[0])
