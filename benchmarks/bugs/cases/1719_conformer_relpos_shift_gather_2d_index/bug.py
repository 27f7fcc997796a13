import math
import torch
import torch.nn as nn


class RelPositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=200):
        super().__init__()
        self.mid_len = max_len // 2
        position = torch.arange(max_len, dtype=torch.float32).unsqueeze(1) - self.mid_len
        div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * -(math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        """
        Args:
            x: [batch_size, time, size]
        Returns:
            pos_emb: relative positions -(time-1) .. (time-1), [1, 2 * time - 1, size]
        """
        t = x.size(1)
        return self.pe[:, self.mid_len - t + 1: self.mid_len + t]


class MultiHeadedSelfAttentionWithRelPos(nn.Module):
    def __init__(self, n_heads, d_model):
        super().__init__()
        self.nheads = n_heads
        self.d_k = d_model // n_heads
        self.query_proj = nn.Linear(d_model, d_model)
        self.pos_proj = nn.Linear(d_model, d_model, bias=False)
        self.posv = nn.Parameter(torch.randn(1, 1, n_heads, self.d_k) * 0.02)

    def _shift(self, matrix_bd):
        """Re-index position scores from relative offset to key position.

        Args:
            matrix_bd: [b, nh, t, 2t - 1], column k holds relative offset k - (t - 1)
        Returns:
            torch.Tensor: [b, nh, t, t], entry (i, j) holds relative offset j - i
        """
        b, nh, t, _ = matrix_bd.size()
        rel_pos = torch.arange(0, t, dtype=torch.long, device=matrix_bd.device)
        rel_pos = (rel_pos[None] - rel_pos[:, None]) + (t - 1)
        return torch.gather(matrix_bd, dim=3, index=rel_pos)

    def relative_logits(self, x, pos):
        """
        Args:
            x: [batch_size, time, size]
            pos: positional embedding [1, 2 * time - 1, size]
        Returns:
            matrix_bd: [batch_size, nheads, time, 2 * time - 1]
        """
        batch_size = x.size(0)
        query = self.query_proj(x).reshape(batch_size, -1, self.nheads, self.d_k)
        pos = self.pos_proj(pos).reshape(1, -1, self.nheads, self.d_k).transpose(1, 2)
        query_with_bias_v = (query + self.posv).transpose(1, 2)
        return torch.matmul(query_with_bias_v, pos.transpose(-2, -1))

    def position_scores(self, x, pos):
        return self._shift(self.relative_logits(x, pos))


def reference_shift(matrix_bd):
    b, nh, t, _ = matrix_bd.shape
    out = torch.empty(b, nh, t, t)
    for bi in range(b):
        for h in range(nh):
            for i in range(t):
                for j in range(t):
                    out[bi, h, i, j] = matrix_bd[bi, h, i, j - i + t - 1]
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    posemb = RelPositionalEncoding(d_model=32)
    attn = MultiHeadedSelfAttentionWithRelPos(n_heads=4, d_model=32)
    x = torch.randn(2, 9, 32)
    with torch.no_grad():
        pos = posemb(x)
        scores = attn.position_scores(x, pos)
        raw = attn.relative_logits(x, pos)
    print("relative position scores:", tuple(scores.shape))
    print("max diff vs loop:", (scores - reference_shift(raw)).abs().max().item())
