import torch
import torch.nn as nn


class ContextualPositionBias(nn.Module):
    """Contextual position encoding (CoPE): positions are counted with sigmoid gates."""

    def __init__(self, head_dim, npos_max):
        super().__init__()
        self.npos_max = npos_max
        self.pos_emb = nn.Embedding(npos_max, head_dim)

    def forward(self, q, qk):
        # q: (head, batch, time1, head_dim)
        # qk: (head, batch, time1, time2)
        future = torch.ones(qk.size(-2), qk.size(-1), dtype=torch.bool).triu()  # key j >= query i
        gates = torch.sigmoid(qk).masked_fill(future, 0.0)
        pos = gates.flip(-1).cumsum(dim=-1).flip(-1)  # (head, batch, time1, time2)
        pos = pos.clamp(max=self.npos_max - 1)
        pos_ceil = pos.ceil().long()
        pos_floor = pos.floor().long()
        logits_int = torch.matmul(q, self.pos_emb.weight.t())  # (head, batch, time1, npos_max)
        logits_ceil = logits_int.gather(-1, pos_ceil)
        logits_floor = logits_int.gather(-1, pos_floor)
        w = pos - pos_floor
        return logits_ceil * w + logits_floor * (1 - w)  # (head, batch, time1, time2)


class CoPESelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, npos_max):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.out = nn.Linear(embed_dim, embed_dim)
        self.cope = ContextualPositionBias(self.head_dim, npos_max)

    def project(self, x):
        # x: (batch, time, embed_dim)
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.num_heads, self.head_dim).permute(2, 3, 0, 1, 4)
        qk = torch.matmul(q, k.transpose(-1, -2)) / self.head_dim ** 0.5  # (head, batch, time1, time2)
        return q, qk, v

    def forward(self, x):
        b, t, _ = x.shape
        q, qk, v = self.project(x)
        attn = (qk + self.cope(q, qk)).softmax(dim=-1)
        y = torch.matmul(attn, v).permute(1, 2, 0, 3).reshape(b, t, -1)
        return self.out(y)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = CoPESelfAttention(embed_dim=32, num_heads=4, npos_max=8)
    x = torch.randn(2, 8, 32)
    y = layer(x)
    q, qk, _ = layer.project(x)
    bias = layer.cope(q, qk)
    logits_int = torch.matmul(q, layer.cope.pos_emb.weight.t())
    H, B, T, _ = qk.shape
    ref = torch.zeros(H, B, T, T)
    for h in range(H):
        for b in range(B):
            for i in range(T):
                for j in range(T):
                    p = sum(torch.sigmoid(qk[h, b, i, k]).item() for k in range(j, i))
                    p = min(p, 8 - 1)
                    lo, hi = int(torch.tensor(p).floor()), int(torch.tensor(p).ceil())
                    w = p - lo
                    ref[h, b, i, j] = logits_int[h, b, i, hi] * w + logits_int[h, b, i, lo] * (1 - w)
    assert y.shape == (2, 8, 32)
    assert torch.allclose(bias, ref, atol=1e-4)
    print("ok")
