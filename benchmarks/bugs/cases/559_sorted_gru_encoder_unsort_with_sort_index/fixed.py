import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence


class SortedGRUEncoder(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.rnn = nn.GRU(emb_dim, hidden, batch_first=True)

    def forward(self, tokens, lengths):
        # tokens:  [B, T] right-padded ids
        # lengths: [B]
        sorted_len, sort_idx = lengths.sort(descending=True)              # [B], [B]
        emb = self.embed(tokens.index_select(0, sort_idx))                # [B, T, E] (sorted order)
        packed = pack_padded_sequence(emb, sorted_len, batch_first=True)
        _, h_n = self.rnn(packed)                                         # [1, B, H] (sorted order)
        last = h_n[-1]                                                    # [B, H]
        unsort_idx = torch.empty_like(sort_idx).scatter_(0, sort_idx, torch.arange(sort_idx.numel()))
        return last.index_select(0, unsort_idx)                           # [B, H] back in batch order


def collate(batch):
    # batch: list of (ids [L_i], label)
    seqs = [ids for ids, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs])
    labels = torch.tensor([y for _, y in batch])
    return pad_sequence(seqs, batch_first=True), lengths, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    samples = [(torch.randint(1, 30, (n,)), n % 2) for n in (3, 5, 2, 4)]
    tokens, lengths, labels = collate(samples)
    enc = SortedGRUEncoder(vocab_size=30, emb_dim=8, hidden=6)
    with torch.no_grad():
        batched = enc(tokens, lengths)
        for i, (ids, _) in enumerate(samples):
            h = torch.zeros(1, 1, 6)
            for t in range(len(ids)):
                _, h = enc.rnn(enc.embed(ids[t : t + 1])[None], h)
            assert torch.allclose(batched[i], h[0, 0], atol=1e-5), i
    print("ok")
