import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def assign_to_anchors(
    tokens: Float[Tensor, "batch n dim"], num_anchors: int
) -> tuple[Float[Tensor, "batch a dim"], Int[Tensor, "batch n"]]:
    anchors = tokens[:, :num_anchors]
    sim = F.normalize(tokens, dim=-1) @ F.normalize(anchors, dim=-1).transpose(1, 2)
    return anchors, sim.argmax(dim=-1)


def merge_tokens(
    tokens: Float[Tensor, "batch n dim"], num_anchors: int
) -> Float[Tensor, "batch a dim"]:
    _, assign = assign_to_anchors(tokens, num_anchors)
    b, n, d = tokens.shape
    index = assign.unsqueeze(-1).expand(b, n, d)
    merged = tokens.new_zeros(b, num_anchors, d)
    return merged.scatter_reduce(1, index, tokens, reduce="mean", include_self=False)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(2, 12, 8) + 2.0
    merged = merge_tokens(x, num_anchors=4)
    _, assign = assign_to_anchors(x, 4)
    for bi in range(2):
        for a in range(4):
            members = [x[bi, t] for t in range(12) if assign[bi, t].item() == a]
            ref = torch.stack(members).mean(0) if members else torch.zeros(8)
            assert torch.allclose(merged[bi, a], ref, atol=1e-6)
    print("ok")
