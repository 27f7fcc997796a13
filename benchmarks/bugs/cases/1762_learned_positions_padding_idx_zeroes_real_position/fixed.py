import torch
import torch.nn.functional as F
from torch import nn


class LearnedPositionalEmbedding(nn.Module):
    """Positions are shifted by 2 (fairseq/BART layout); the pad token id is passed along."""

    def __init__(self, num_positions, embedding_dim, padding_idx):
        super().__init__()
        self.offset = 2
        self.padding_idx = padding_idx
        self.weight = nn.Parameter(torch.randn(num_positions + self.offset, embedding_dim) * 0.02)

    def forward(self, input_ids):
        bsz, seq_len = input_ids.shape
        positions = torch.arange(seq_len, device=input_ids.device).expand(bsz, -1)
        return F.embedding(positions + self.offset, self.weight)


def fit_positions(module, input_ids, target, steps, lr):
    opt = torch.optim.SGD(module.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        loss = ((module(input_ids) - target) ** 2).mean()
        loss.backward()
        opt.step()
    return module


if __name__ == "__main__":
    torch.manual_seed(0)
    pad_token_id = 3   # tokenizer exported with pad id 3
    pos_emb = LearnedPositionalEmbedding(16, 8, padding_idx=pad_token_id)
    input_ids = torch.randint(4, 100, (4, 10))
    target = torch.randn(10, 8).expand(4, -1, -1)

    fit_positions(pos_emb, input_ids, target, steps=200, lr=5.0)
    with torch.no_grad():
        out = pos_emb(input_ids)[0]

    worst_pos, worst_err = 0, 0.0
    for p in range(10):
        err = float((out[p] - target[0, p]).abs().max())
        if err > worst_err:
            worst_pos, worst_err = p, err
    assert worst_err < 1e-3, (worst_pos, worst_err)
    print("ok")
