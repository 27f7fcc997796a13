import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def sort_by_length(lengths):
    sorted_lengths, sort_idx = lengths.sort(descending=True)
    unsort_idx = torch.empty(len(lengths), dtype=torch.long)
    unsort_idx.scatter_(0, sort_idx, torch.arange(len(lengths)))
    return sorted_lengths, sort_idx, unsort_idx


class SentenceEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab"], cfg["emb"], padding_idx=0)
        self.rnn = nn.GRU(cfg["emb"], cfg["hidden"], batch_first=True, bidirectional=True)

    def forward(self, tokens, lengths):
        sorted_lengths, sort_idx, unsort_idx = sort_by_length(lengths)
        x = self.embed(tokens.index_select(0, sort_idx))
        packed = pack_padded_sequence(x, sorted_lengths, batch_first=True)
        _, h = self.rnn(packed)
        h = torch.cat([h[0], h[1]], dim=-1)
        return h.index_select(0, unsort_idx)


def make_batch(cfg, seed):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(1, cfg["max_len"] + 1, (cfg["batch"],), generator=g)
    tokens = torch.randint(1, cfg["vocab"], (cfg["batch"], cfg["max_len"]), generator=g)
    tokens = tokens.masked_fill(torch.arange(cfg["max_len"])[None] >= lengths[:, None], 0)
    return tokens, lengths


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab": 50, "emb": 8, "hidden": 6, "batch": 5, "max_len": 7}
    encoder = SentenceEncoder(cfg)
    tokens, lengths = make_batch(cfg, seed=1)
    with torch.no_grad():
        sentence_vecs = encoder(tokens, lengths)
        for b in range(cfg["batch"]):
            n = int(lengths[b])
            x = encoder.embed(tokens[b : b + 1, :n])
            _, h = encoder.rnn(x)
            ref = torch.cat([h[0, 0], h[1, 0]])
            assert torch.allclose(sentence_vecs[b], ref, atol=1e-5), b
    print("ok")
