import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DotAttention(nn.Module):
    """Scaled dot-product attention scores.

    Args:
        key_size: size of each key/query vector (d).

    Forward args:
        Q: (batch, heads, tgt_len, d) queries.
        K: (batch, heads, src_len, d) keys.

    Returns:
        (batch, heads, tgt_len, src_len) attention distribution over source positions.
    """

    def __init__(self, key_size):
        super().__init__()
        self.scale = math.sqrt(key_size)

    def forward(self, Q, K):
        scores = torch.matmul(Q, K.transpose(-1, -2)) / self.scale
        return F.softmax(scores, dim=2)


def copy_log_likelihood(attn, gold_src_pos):
    """Log-probability of copying the gold source token at every target step.

    Args:
        attn: (batch, heads, tgt_len, src_len) attention distributions.
        gold_src_pos: (batch, tgt_len) source position to copy for each target step.

    Returns:
        (batch, tgt_len) log p(copy gold position), averaged over heads.
    """
    p_copy = attn.mean(dim=1)
    picked = p_copy.gather(-1, gold_src_pos.unsqueeze(-1)).squeeze(-1)
    return picked.clamp(min=1e-9).log()


if __name__ == "__main__":
    torch.manual_seed(0)
    B, H, T, S, d = 2, 4, 5, 7, 8
    Q, K = torch.randn(B, H, T, d), torch.randn(B, H, S, d)
    gold = torch.randint(0, S, (B, T))
    attn = DotAttention(d)(Q, K)
    ll = copy_log_likelihood(attn, gold)
    print("row sums over source:", attn.sum(-1)[0, 0].tolist())
    print("copy NLL:", float(-ll.mean()))
