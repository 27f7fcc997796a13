import torch
from torch import nn, Tensor
from jaxtyping import Float, Int


class AbsolutePositionalEmbedding(nn.Module):
    def __init__(self, dim: int, max_seq_len: int):
        super().__init__()
        self.scale = dim ** -0.5
        self.max_seq_len = max_seq_len
        self.emb = nn.Embedding(max_seq_len, dim)

    def forward(
        self,
        x: Int[Tensor, "b n"],
        offset: Int[Tensor, " b"] | None = None,
    ) -> Float[Tensor, "b n d"]:
        seq_len = x.shape[1]
        assert seq_len <= self.max_seq_len, f"sequence length {seq_len} exceeds {self.max_seq_len}"
        pos: Int[Tensor, "..."] = torch.arange(seq_len, device=x.device)
        if offset is not None:
            pos = pos + offset[..., None]
        return self.emb(pos) * self.scale


class TokenAndPositionEmbedding(nn.Module):
    def __init__(self, num_tokens: int, dim: int, max_seq_len: int):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.pos_emb = AbsolutePositionalEmbedding(dim, max_seq_len)

    def forward(self, x: Int[Tensor, "b n"], seq_start_pos: Int[Tensor, " b"]) -> Float[Tensor, "b n d"]:
        # left-padded prompts: the first real token of row b sits at seq_start_pos[b]
        pos_emb = self.pos_emb(x, offset=seq_start_pos)
        return self.token_emb(x) + pos_emb


def left_pad(prompts: list[list[int]], pad_id: int) -> tuple[Int[Tensor, "b n"], Int[Tensor, " b"]]:
    n = max(len(p) for p in prompts)
    x = torch.full((len(prompts), n), pad_id, dtype=torch.long)
    for i, p in enumerate(prompts):
        x[i, n - len(p):] = torch.tensor(p)
    seq_start_pos = torch.tensor([n - len(p) for p in prompts])
    return x, seq_start_pos


if __name__ == "__main__":
    torch.manual_seed(0)
    embed = TokenAndPositionEmbedding(num_tokens=100, dim=8, max_seq_len=16)
    prompts = [list(range(1, 13)), list(range(20, 28)), list(range(40, 45))]
    x, seq_start_pos = left_pad(prompts, pad_id=0)
    with torch.no_grad():
        out = embed(x, seq_start_pos)
    ref = torch.zeros_like(out)
    pos_w = embed.pos_emb.emb.weight
    for b in range(x.shape[0]):
        for t in range(x.shape[1]):
            p = max(t - int(seq_start_pos[b]), 0)
            ref[b, t] = embed.token_emb.weight[x[b, t]] + pos_w[p] * embed.pos_emb.scale
    print("max |diff| vs per-token reference:", (out - ref).abs().max().item())
