import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class RotaryEmbedding(nn.Module):
    def __init__(self, dim: int, theta: float = 10000.0):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / theta ** (torch.arange(0, dim, 2).float() / dim))

    def forward(self, seq_len: int) -> Float[Tensor, "n d"]:
        freqs = torch.arange(seq_len).float()[:, None] * self.inv_freq[None, :]
        return torch.cat((freqs, freqs), dim=-1)


def apply_rotary(freqs: Float[Tensor, "... n d"], t: Float[Tensor, "... n d"]) -> Float[Tensor, "... n d"]:
    x1, x2 = t.chunk(2, dim=-1)
    return t * freqs.cos() + torch.cat((-x2, x1), dim=-1) * freqs.sin()


class RoutedAutoregressiveQueries(nn.Module):
    """CoLT5-style heavy branch: inside every window (after the first) the router keeps the
    top-k query tokens; rotary embeddings must use the tokens' absolute positions."""

    def __init__(self, dim: int, window_size: int, num_heavy_tokens: int):
        super().__init__()
        self.window_size = window_size
        self.num_heavy_tokens = num_heavy_tokens
        self.router = nn.Linear(dim, 1, bias=False)
        self.rotary_emb = RotaryEmbedding(dim)

    def forward(self, x: Float[Tensor, "b n d"]) -> tuple[Float[Tensor, "bw k d"], Int[Tensor, "bw k"]]:
        batch, seq_len, dim = x.shape
        w = self.window_size
        q: Float[Tensor, "bw w d"] = x.unflatten(1, (-1, w))[:, 1:].flatten(0, 1)
        scores: Float[Tensor, "bw w"] = self.router(q).squeeze(-1)
        keep_local: Int[Tensor, "bw k"] = scores.topk(self.num_heavy_tokens, dim=-1).indices.sort(dim=-1).values
        routed_q = q.gather(1, keep_local.unsqueeze(-1).expand(-1, -1, dim))
        pos_freqs: Float[Tensor, "n d"] = self.rotary_emb(seq_len)
        window_freqs: Float[Tensor, "bw w d"] = pos_freqs.unflatten(0, (-1, w))[1:].repeat(batch, 1, 1)
        query_freqs: Float[Tensor, "bw k d"] = window_freqs.gather(1, keep_local.unsqueeze(-1).expand(-1, -1, dim))
        return apply_rotary(query_freqs, routed_q), keep_local


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, seq_len, dim, window = 2, 32, 16, 8
    block = RoutedAutoregressiveQueries(dim, window_size=window, num_heavy_tokens=3)
    x = torch.randn(batch, seq_len, dim)
    with torch.no_grad():
        out, idx = block(x)
        table = block.rotary_emb(seq_len)
    ref = torch.empty_like(out)
    num_windows = seq_len // window - 1
    for b in range(batch):
        for m in range(num_windows):
            row = b * num_windows + m
            for j, local in enumerate(idx[row].tolist()):
                pos = (m + 1) * window + local
                ref[row, j] = apply_rotary(table[pos], x[b, pos])
    assert torch.allclose(out, ref, atol=1e-5)
    print("ok")
