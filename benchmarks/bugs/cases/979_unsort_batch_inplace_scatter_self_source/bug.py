import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def sort_by_length(x, lengths):
    # x: [B, T, E], lengths: [B]
    lengths, perm_idx = lengths.sort(0, descending=True)
    return x[perm_idx], lengths, perm_idx


def unsort_batch(batch, perm_idx):
    # batch: [B, T, H] in length-sorted order; perm_idx: [B], sorted row i came from row perm_idx[i]
    perm_idx = perm_idx.view(-1, 1, 1).expand_as(batch)      # [B, T, H]
    return batch.scatter_(0, perm_idx, batch)


class RNNEncoder(nn.Module):
    def __init__(self, emb_dim, hidden):
        super().__init__()
        self.rnn = nn.LSTM(emb_dim, hidden, batch_first=True)

    def forward(self, x, lengths):
        # x: [B, T, E] padded embeddings, lengths: [B]
        x_sorted, sorted_len, perm_idx = sort_by_length(x, lengths)
        packed = pack_padded_sequence(x_sorted, sorted_len, batch_first=True)
        out, _ = self.rnn(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=x.size(1))   # [B, T, H]
        return unsort_batch(out, perm_idx)


if __name__ == "__main__":
    torch.manual_seed(0)
    enc = RNNEncoder(emb_dim=6, hidden=5)
    x = torch.randn(4, 7, 6)
    lengths = torch.tensor([3, 7, 2, 5])
    with torch.no_grad():
        out = enc(x, lengths)
    print("last valid state of example 0:", out[0, lengths[0] - 1])
