import math

import torch
from jaxtyping import Float, Int
from torch import Tensor

LOG_EPS = math.log(1e-30)


def index_to_log_onehot(x: Int[Tensor, "batch length"], num_classes: int) -> Float[Tensor, "batch classes length"]:
    batch, length = x.shape
    log_x = torch.full((batch, num_classes, length), LOG_EPS, dtype=torch.float32)
    log_x.scatter_(index=x[:, None, :], src=0, dim=1)
    return log_x


def log_onehot_to_index(log_x: Float[Tensor, "batch classes length"]) -> Int[Tensor, "batch length"]:
    return log_x.argmax(dim=1)


def q_posterior_mask_rate(log_x: Float[Tensor, "batch classes length"], mask_class: int) -> Float[Tensor, "batch"]:
    return log_x[:, mask_class, :].exp().mean(dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_embed = 9  # 8 codebook entries + the [MASK] class
    tokens = torch.randint(0, num_embed, (2, 16))
    log_x = index_to_log_onehot(tokens, num_embed)
    print("round trip:", torch.equal(log_onehot_to_index(log_x), tokens))
    print("mask rate:", q_posterior_mask_rate(log_x, num_embed - 1).tolist())
