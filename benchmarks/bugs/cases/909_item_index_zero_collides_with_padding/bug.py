import torch
import torch.nn as nn


def build_item_map(raw_histories):
    items = sorted({it for hist in raw_histories.values() for it in hist})
    return {item: idx for idx, item in enumerate(items)}


def pad_histories(raw_histories, smap, max_len):
    rows = []
    for user in sorted(raw_histories):
        seq = [smap[it] for it in raw_histories[user]][-max_len:]
        rows.append([0] * (max_len - len(seq)) + seq)  # left-pad with 0
    return torch.tensor(rows)  # (U, L)


class HistoryEncoder(nn.Module):
    def __init__(self, num_items, dim):
        super().__init__()
        self.item_emb = nn.Embedding(num_items + 1, dim, padding_idx=0)  # row 0 = padding

    def forward(self, seqs):
        # seqs: (U, L) item indices, 0 = padding
        emb = self.item_emb(seqs)  # (U, L, D)
        mask = (seqs > 0).unsqueeze(-1).float()  # (U, L, 1)
        return (emb * mask).sum(1) / mask.sum(1).clamp(min=1)  # (U, D)


if __name__ == "__main__":
    torch.manual_seed(0)
    raw = {"u1": ["apple", "kiwi", "pear"], "u2": ["kiwi", "plum"], "u3": ["apple"]}
    smap = build_item_map(raw)
    seqs = pad_histories(raw, smap, max_len=4)
    enc = HistoryEncoder(num_items=len(smap), dim=4)
    user_vecs = enc(seqs)
    print("item map:", smap)
    print("u3 history vector:", user_vecs[2])
    print("u1 vector built from", int((seqs[0] > 0).sum()), "of", len(raw["u1"]), "items")
