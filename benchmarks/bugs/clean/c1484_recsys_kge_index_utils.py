"""Indexing utilities shared by a small recommender / link-prediction toolkit.

All sequences are right-padded with item id 0.
"""
import torch
import torch.nn as nn


def gather_indexes(output, gather_index):
    """Pick one hidden state per sequence.

    Args:
        output (torch.FloatTensor): [B, L, H]
        gather_index (torch.LongTensor): [B], position to read in each row

    Returns:
        torch.FloatTensor: [B, H]
    """
    gather_index = gather_index.view(-1, 1, 1).expand(-1, -1, output.shape[-1])  # [B, 1, H]
    return output.gather(dim=1, index=gather_index).squeeze(1)


def last_item_ids(item_seq, item_seq_len):
    # item_seq: [B, L]   item_seq_len: [B]
    return item_seq.gather(1, (item_seq_len - 1).unsqueeze(1)).squeeze(1)  # [B]


def append_mask_token(item_seq, item_seq_len, mask_token):
    # [B, L] -> [B, L + 1], mask token written right after the last real item
    padded = torch.cat([item_seq, item_seq.new_zeros(item_seq.size(0), 1)], dim=1)
    padded.scatter_(1, item_seq_len.unsqueeze(1), mask_token)
    return padded


def count_items(item_ids, n_items):
    # item_ids: [N] with repeats -> [n_items] counts, duplicates accumulate
    counts = torch.zeros(n_items, dtype=torch.long)
    counts.scatter_add_(0, item_ids, torch.ones_like(item_ids))
    return counts


def restrict_scores(scores, ids):
    # scores: [B, n]   ids: [k] shared candidates or [B, k] per-row candidates -> [B, k]
    if ids.ndim == 1:
        return scores.index_select(1, ids)
    return scores.gather(1, ids)


def masked_greedy_value(q, mask):
    # q: [B, A]   mask: [B, A] bool, True = legal -> value of the best legal action, [B]
    act = q.masked_fill(~mask, float("-inf")).argmax(dim=1, keepdim=True)  # [B, 1]
    return q.gather(1, act).squeeze(1)


class ItemScorer(nn.Module):
    def __init__(self, n_items, hidden):
        super().__init__()
        self.item_embedding = nn.Embedding(n_items + 1, hidden, padding_idx=0)  # last row: [MASK]
        self.encoder = nn.GRU(hidden, hidden, batch_first=True)

    def forward(self, item_seq, item_seq_len):
        out, _ = self.encoder(self.item_embedding(item_seq))  # [B, L, H]
        seq_output = gather_indexes(out, item_seq_len - 1)  # [B, H]
        return seq_output @ self.item_embedding.weight[:-1].t()  # [B, n_items]


if __name__ == "__main__":
    torch.manual_seed(0)
    B, L, H, n_items = 4, 6, 8, 30
    lengths = torch.tensor([3, 6, 1, 4])
    item_seq = torch.zeros(B, L, dtype=torch.long)
    for b in range(B):
        item_seq[b, : lengths[b]] = torch.randint(1, n_items, (int(lengths[b]),))

    out = torch.randn(B, L, H)
    picked = gather_indexes(out, lengths - 1)
    assert all(torch.equal(picked[b], out[b, lengths[b] - 1]) for b in range(B))
    assert last_item_ids(item_seq, lengths).tolist() == [int(item_seq[b, lengths[b] - 1]) for b in range(B)]

    with_mask = append_mask_token(item_seq, lengths, mask_token=n_items)
    for b in range(B):
        assert int(with_mask[b, lengths[b]]) == n_items
        assert torch.equal(with_mask[b, : lengths[b]], item_seq[b, : lengths[b]])

    ids = torch.tensor([3, 5, 3, 7, 3, 5])
    assert count_items(ids, 10).tolist() == [sum(1 for i in ids.tolist() if i == k) for k in range(10)]

    scores = torch.randn(B, n_items)
    per_row = torch.randint(n_items, (B, 5))
    shared = torch.tensor([0, 4, 9])
    r1, r2 = restrict_scores(scores, per_row), restrict_scores(scores, shared)
    assert all(r1[b, j] == scores[b, per_row[b, j]] for b in range(B) for j in range(5))
    assert all(r2[b, j] == scores[b, shared[j]] for b in range(B) for j in range(3))

    q = torch.randn(B, 5)
    mask = torch.rand(B, 5) < 0.5
    mask[:, 2] = True
    v = masked_greedy_value(q, mask)
    assert all(v[b] == max(q[b, a] for a in range(5) if mask[b, a]) for b in range(B))

    model = ItemScorer(n_items, H).eval()
    with torch.no_grad():
        full = model(item_seq, lengths)
        enc, _ = model.encoder(model.item_embedding(item_seq))
        ref = torch.stack([enc[b, lengths[b] - 1] for b in range(B)]) @ model.item_embedding.weight[:-1].t()
    assert full.shape == (B, n_items) and torch.allclose(full, ref, atol=1e-6)
    print("ok")
