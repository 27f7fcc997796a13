import torch
import torch.nn as nn
import torch.nn.functional as F

HPARAMS = dict(vocab_size=30, d_model=16, n_heads=2)


class PointerGeneratorHead(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.vocab_size = hp["vocab_size"]
        self.attn = nn.MultiheadAttention(hp["d_model"], hp["n_heads"], batch_first=True)
        self.gen_proj = nn.Linear(hp["d_model"], hp["vocab_size"])
        self.p_gen = nn.Linear(2 * hp["d_model"], 1)

    def forward(self, dec_h, enc_h, src_ids, n_oov):
        ctx, attn = self.attn(dec_h, enc_h, enc_h)
        gen = F.softmax(self.gen_proj(dec_h), dim=-1)
        p = torch.sigmoid(self.p_gen(torch.cat([dec_h, ctx], dim=-1)))
        ext = self.vocab_size + n_oov
        gen = F.pad(p * gen, (0, n_oov))
        index = src_ids.unsqueeze(1).expand(-1, dec_h.shape[1], -1)
        copy = torch.zeros(dec_h.shape[0], dec_h.shape[1], ext).scatter_(2, index, (1 - p) * attn)
        return gen + copy


def make_batch(hp, seed=0):
    g = torch.Generator().manual_seed(seed)
    enc = torch.randn(2, 6, hp["d_model"], generator=g)
    dec = torch.randn(2, 3, hp["d_model"], generator=g)
    src = torch.tensor([[4, 31, 4, 9, 31, 2], [7, 7, 7, 12, 30, 5]])
    return dec, enc, src


if __name__ == "__main__":
    torch.manual_seed(0)
    head = PointerGeneratorHead(HPARAMS)
    dec, enc, src = make_batch(HPARAMS)
    final = head(dec, enc, src, n_oov=2)
    print("total probability per decoder step:", final.sum(-1))
