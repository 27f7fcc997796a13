import math

import torch
import torch.nn as nn


class RoPEPositionEncoding(nn.Module):
    def __init__(self, max_position, embedding_size):
        super().__init__()
        position = torch.arange(max_position, dtype=torch.float).unsqueeze(1)     # [max_position, 1]
        div_term = torch.exp(torch.arange(0, embedding_size, 2).float() * (-math.log(10000.0) / embedding_size))
        table = torch.zeros(max_position, embedding_size)                          # [max_position, hdsz]
        table[:, 0::2] = torch.sin(position * div_term)
        table[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("cos_position", table[:, 1::2].repeat_interleave(2, dim=-1))
        self.register_buffer("sin_position", table[:, ::2].repeat_interleave(2, dim=-1))

    def forward(self, qw, seq_dim=-3):
        # qw: [btz, seq_len, heads, hdsz]
        seq_len = qw.shape[seq_dim]
        pos = torch.arange(seq_len, device=qw.device)
        cos = self.cos_position[pos].unsqueeze(-2)                                  # [seq_len, 1, hdsz]
        sin = self.sin_position[pos].unsqueeze(-2)
        qw2 = torch.stack([-qw[..., 1::2], qw[..., ::2]], dim=-1).reshape_as(qw)
        return qw * cos + qw2 * sin


class GlobalPointer(nn.Module):
    def __init__(self, hidden_size, heads, head_size, max_len=512):
        super().__init__()
        self.heads, self.head_size = heads, head_size
        self.dense = nn.Linear(hidden_size, heads * head_size * 2)
        self.rope = RoPEPositionEncoding(max_len, head_size)

    def forward(self, inputs):
        # inputs: [btz, seq_len, hidden] -> logits: [btz, heads, seq_len, seq_len]
        sequence_output = self.dense(inputs)
        sequence_output = torch.stack(torch.chunk(sequence_output, self.heads, dim=-1), dim=-2)
        qw, kw = sequence_output[..., : self.head_size], sequence_output[..., self.head_size:]
        qw, kw = self.rope(qw), self.rope(kw)
        return torch.einsum("bmhd,bnhd->bhmn", qw, kw) / self.head_size ** 0.5


if __name__ == "__main__":
    torch.manual_seed(0)
    model = GlobalPointer(hidden_size=32, heads=3, head_size=8)
    inputs = torch.randn(2, 10, 32)
    with torch.no_grad():
        logits = model(inputs)
        out = model.dense(inputs).view(2, 10, 3, 16)
        qw, kw = out[..., :8], out[..., 8:]
        ref = torch.zeros(2, 3, 10, 10)
        for b in range(2):
            for h in range(3):
                for m in range(10):
                    for n in range(10):
                        s = 0.0
                        for i in range(4):
                            q = complex(qw[b, m, h, 2 * i], qw[b, m, h, 2 * i + 1])
                            k = complex(kw[b, n, h, 2 * i], kw[b, n, h, 2 * i + 1])
                            theta = 10000.0 ** (-2 * i / 8)
                            s += (q * complex(math.cos(m * theta), math.sin(m * theta))
                                  * (k * complex(math.cos(n * theta), math.sin(n * theta))).conjugate()).real
                        ref[b, h, m, n] = s / 8 ** 0.5
    assert torch.allclose(logits, ref, atol=1e-4)
    print("ok")
