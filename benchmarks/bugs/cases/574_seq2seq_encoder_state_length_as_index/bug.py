import torch
import torch.nn as nn


def infer_length(seq, eos_ix, include_eos=True):
    # seq: [batch, time] token ids; returns [batch] lengths up to the first EOS
    is_eos = (seq == eos_ix).long()
    before_eos = (torch.cumsum(is_eos, dim=1) == 0).long()
    lengths = before_eos.sum(dim=1)
    if include_eos:
        lengths = lengths + 1
    return lengths


class BasicEncoder(nn.Module):
    def __init__(self, vocab_size, emb_size, hid_size, eos_ix):
        super().__init__()
        self.eos_ix = eos_ix
        self.emb = nn.Embedding(vocab_size, emb_size)
        self.enc0 = nn.GRU(emb_size, hid_size, batch_first=True)

    def forward(self, inp):
        inp_emb = self.emb(inp)                     # [B, T, E]
        enc_seq, _ = self.enc0(inp_emb)             # [B, T, H]
        # select last element w.r.t. mask
        end_index = infer_length(inp, self.eos_ix)  # [B]
        end_index[end_index >= inp.shape[1]] = inp.shape[1] - 1
        enc_last = enc_seq[torch.arange(len(inp)), end_index]  # [B, H]
        return enc_last, enc_seq


if __name__ == "__main__":
    torch.manual_seed(0)
    EOS, PAD = 1, 0
    batch = torch.tensor([
        [5, 7, 9, 1, 0, 0],
        [4, 6, 1, 0, 0, 0],
        [8, 3, 2, 6, 7, 1],
    ])
    enc = BasicEncoder(vocab_size=10, emb_size=8, hid_size=16, eos_ix=EOS)
    with torch.no_grad():
        last, seq = enc(batch)
    eos_pos = [row.tolist().index(EOS) for row in batch]
    for b, p in enumerate(eos_pos):
        gap = (last[b] - seq[b, p]).abs().max().item()
        print(f"sequence {b}: eos at {p}, final state differs from eos state by {gap:.4f}")
