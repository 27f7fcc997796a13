from dataclasses import dataclass
from typing import Optional, Sequence

import torch
import torch.nn as nn

IGNORE_INDEX = -100


@dataclass
class TextRow:
    input_ids: list
    labels: list
    positions: Optional[list] = None


class TextCollator:
    """Concatenates text rows into one token batch and pads only the tail."""

    def __init__(self, num_tokens_per_batch: int):
        self.num_tokens_per_batch = num_tokens_per_batch

    def __call__(self, rows: Sequence[TextRow]):
        num_tokens = sum(len(r.input_ids) for r in rows)
        if num_tokens > self.num_tokens_per_batch:
            raise ValueError("text rows exceed the configured token batch")
        input_ids = torch.cat([torch.as_tensor(r.input_ids) for r in rows])
        labels = torch.cat([torch.as_tensor(r.labels) for r in rows])
        positions = torch.cat([
            torch.arange(len(r.input_ids)) if r.positions is None else torch.as_tensor(r.positions)
            for r in rows
        ])
        pad_len = self.num_tokens_per_batch - num_tokens
        if pad_len:
            input_ids = nn.functional.pad(input_ids, (0, pad_len))
            labels = nn.functional.pad(labels, (0, pad_len), value=IGNORE_INDEX)
            positions = torch.cat([positions, torch.arange(pad_len, dtype=positions.dtype)])
        return {"input": input_ids, "positions": positions}, labels


class RotaryCache(nn.Module):
    def __init__(self, head_dim: int, max_seq_len: int, theta: float = 10000.0):
        super().__init__()
        inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
        t = torch.arange(max_seq_len).float()
        freqs = torch.outer(t, inv_freq)
        self.register_buffer("cos", freqs.cos(), persistent=False)
        self.register_buffer("sin", freqs.sin(), persistent=False)

    def forward(self, positions):
        return self.cos.index_select(0, positions), self.sin.index_select(0, positions)


def apply_rotary(x, cos, sin):
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
    return out.flatten(-2)


class TinyPackedLM(nn.Module):
    def __init__(self, vocab: int, dim: int, max_seq_len: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rope = RotaryCache(dim, max_seq_len)
        self.out = nn.Linear(dim, vocab)

    def forward(self, input, positions):
        h = self.embed(input)
        cos, sin = self.rope(positions)
        h = apply_rotary(h, cos, sin)
        return self.out(h)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab": 50, "dim": 8, "max_seq_len": 16, "tokens_per_batch": 48}
    collate = TextCollator(cfg["tokens_per_batch"])
    rows = [TextRow(list(range(1, 11)), list(range(2, 12))), TextRow(list(range(5, 12)), list(range(6, 13)))]
    batch, labels = collate(rows)
    model = TinyPackedLM(cfg["vocab"], cfg["dim"], cfg["max_seq_len"])
    logits = model(**batch)
    loss = nn.functional.cross_entropy(logits, labels, ignore_index=IGNORE_INDEX)
    print("loss:", loss.item())
