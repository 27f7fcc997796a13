import torch
import torch.nn as nn


class GRU4RecLite(nn.Module):
    """Session recommender: encode the item sequence, read the state at the last real item,
    score all items and mask the ones already in the session."""

    def __init__(self, n_items, hidden_size=32, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.item_embedding = nn.Embedding(n_items, hidden_size, padding_idx=pad_id)
        self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)

    @staticmethod
    def gather_indexes(output, gather_index):
        """output: [B, L, H], gather_index: [B] -> [B, H] (state at gather_index for each row)."""
        gather_index = gather_index.view(-1, 1, 1).expand(-1, -1, output.shape[-1])
        return output.gather(dim=1, index=gather_index).squeeze(1)

    def forward(self, item_seq, item_seq_len):
        out, _ = self.gru(self.item_embedding(item_seq))  # [B, L, H]
        return self.gather_indexes(out, item_seq_len - 1)  # [B, H]

    def full_sort_topk(self, item_seq, item_seq_len, k):
        seq_output = self.forward(item_seq, item_seq_len)  # [B, H]
        scores = seq_output @ self.item_embedding.weight.T  # [B, n_items]
        history = torch.zeros_like(scores, dtype=torch.bool)
        history.scatter_(1, item_seq, True)  # padding id 0 is masked as well
        scores = scores.masked_fill(history, float("-inf"))
        return torch.topk(scores, k, dim=-1)


def item_popularity(item_seq, n_items, pad_id=0):
    counts = torch.zeros(n_items, dtype=torch.long)
    flat = item_seq.flatten()
    flat = flat[flat != pad_id]
    counts.scatter_add_(0, flat, torch.ones_like(flat))
    return counts


if __name__ == "__main__":
    torch.manual_seed(0)
    n_items, B, L = 40, 5, 7
    lengths = torch.tensor([7, 3, 5, 1, 6])
    item_seq = torch.randint(1, n_items, (B, L))
    item_seq[torch.arange(L)[None, :] >= lengths[:, None]] = 0
    model = GRU4RecLite(n_items).eval()

    with torch.no_grad():
        values, indices = model.full_sort_topk(item_seq, lengths, k=5)
        out, _ = model.gru(model.item_embedding(item_seq))
        state = model(item_seq, lengths)
    pop = item_popularity(item_seq, n_items)

    # reference loops
    for b in range(B):
        assert torch.allclose(state[b], out[b, lengths[b] - 1])
        seen = set(item_seq[b].tolist())
        with torch.no_grad():
            s = [(state[b] @ model.item_embedding.weight[i]).item() for i in range(n_items)]
        ranked = sorted((i for i in range(n_items) if i not in seen), key=lambda i: -s[i])[:5]
        assert indices[b].tolist() == ranked
    ref = [0] * n_items
    for v in item_seq.flatten().tolist():
        if v != 0:
            ref[v] += 1
    assert pop.tolist() == ref
    print("ok")
