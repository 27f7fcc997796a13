import torch
import torch.nn as nn
import torch.nn.functional as F


class SASRecLite(nn.Module):
    """Self-attentive sequential recommender (one block), right-padded item sequences, item 0 = padding."""

    def __init__(self, n_items, hidden_size=32, max_seq_length=20, n_heads=2):
        super().__init__()
        self.n_items = n_items
        self.item_embedding = nn.Embedding(n_items, hidden_size, padding_idx=0)
        self.position_embedding = nn.Embedding(max_seq_length, hidden_size)
        self.encoder = nn.TransformerEncoderLayer(hidden_size, n_heads, 2 * hidden_size, dropout=0.0, batch_first=True)

    def gather_indexes(self, output, gather_index):
        """Hidden state at one position of every sequence.

        Args:
            output (Tensor): (B, L, H) encoder output.
            gather_index (LongTensor): (B,) position to read per sequence.

        Returns:
            Tensor: (B, H).
        """
        gather_index = gather_index.view(-1, 1, 1).expand(-1, -1, output.shape[-1])
        return output.gather(dim=1, index=gather_index).squeeze(1)

    def forward(self, item_seq, item_seq_len):
        """Sequence representation at the last real item.

        Args:
            item_seq (LongTensor): (B, L) right-padded with 0.
            item_seq_len (LongTensor): (B,) number of real items, >= 1.

        Returns:
            Tensor: (B, H).
        """
        positions = torch.arange(item_seq.size(1), device=item_seq.device).unsqueeze(0).expand_as(item_seq)
        x = self.item_embedding(item_seq) + self.position_embedding(positions)
        causal = torch.triu(torch.ones(item_seq.size(1), item_seq.size(1), dtype=torch.bool), diagonal=1)
        out = self.encoder(x, src_mask=causal, src_key_padding_mask=item_seq == 0)
        return self.gather_indexes(out, item_seq_len - 1)

    def sampled_softmax_loss(self, seq_output, pos_items, neg_items):
        """Softmax over the positive and K sampled negatives; the positive sits in column 0.

        Args:
            seq_output (Tensor): (B, H).
            pos_items (LongTensor): (B,).
            neg_items (LongTensor): (B, K).

        Returns:
            Tensor: scalar loss.
        """
        candidates = torch.cat([pos_items.unsqueeze(1), neg_items], dim=1)  # (B, 1 + K)
        cand_emb = self.item_embedding(candidates)  # (B, 1 + K, H)
        logits = torch.einsum("bh,bkh->bk", seq_output, cand_emb)
        target = torch.zeros(logits.size(0), dtype=torch.long, device=logits.device)
        return F.cross_entropy(logits, target)

    def full_sort_scores(self, seq_output, history=None):
        """Scores for every real item; optionally masks items already in the history.

        Args:
            seq_output (Tensor): (B, H).
            history (LongTensor, optional): (B, L) right-padded item ids.

        Returns:
            Tensor: (B, n_items - 1), column j scores item j + 1.
        """
        scores = seq_output @ self.item_embedding.weight[1:].t()
        if history is not None:
            rows = torch.arange(history.size(0), device=history.device).unsqueeze(1).expand_as(history)
            real = history > 0
            scores[rows[real], history[real] - 1] = float("-inf")
        return scores


def hit_and_ndcg_at_k(scores, target_items, k):
    """HR@k and NDCG@k for one held-out item per user.

    Args:
        scores (Tensor): (B, n_items - 1), column j scores item j + 1.
        target_items (LongTensor): (B,) item ids >= 1.
        k (int): cut-off.

    Returns:
        tuple: (hit, ndcg) as floats.
    """
    target_scores = scores.gather(1, (target_items - 1).unsqueeze(1))  # (B, 1)
    rank = (scores > target_scores).sum(dim=1)  # 0-based
    hit = (rank < k).float()
    ndcg = hit / torch.log2(rank.float() + 2.0)
    return hit.mean().item(), ndcg.mean().item()


def item_popularity(item_seq, n_items):
    """Interaction counts per item id (padding id 0 excluded), accumulated with scatter_add_."""
    counts = torch.zeros(n_items, dtype=torch.long)
    flat = item_seq.flatten()
    counts.scatter_add_(0, flat, torch.ones_like(flat))
    counts[0] = 0
    return counts


if __name__ == "__main__":
    torch.manual_seed(0)
    n_items, batch, max_len = 50, 6, 20
    lengths = torch.tensor([3, 20, 7, 1, 12, 5])
    item_seq = torch.zeros(batch, max_len, dtype=torch.long)
    for b in range(batch):
        item_seq[b, : lengths[b]] = torch.randint(1, n_items, (int(lengths[b]),))
    model = SASRecLite(n_items, max_seq_length=max_len).eval()

    with torch.no_grad():
        positions = torch.arange(max_len).unsqueeze(0).expand_as(item_seq)
        x = model.item_embedding(item_seq) + model.position_embedding(positions)
        causal = torch.triu(torch.ones(max_len, max_len, dtype=torch.bool), diagonal=1)
        full = model.encoder(x, src_mask=causal, src_key_padding_mask=item_seq == 0)
        seq_output = model(item_seq, lengths)
        for b in range(batch):
            assert torch.allclose(seq_output[b], full[b, int(lengths[b]) - 1], atol=1e-6)

        pos_items = torch.randint(1, n_items, (batch,))
        neg_items = torch.randint(1, n_items, (batch, 4))
        loss = model.sampled_softmax_loss(seq_output, pos_items, neg_items)
        ref = 0.0
        for b in range(batch):
            cands = [int(pos_items[b])] + neg_items[b].tolist()
            logits = torch.stack([seq_output[b] @ model.item_embedding.weight[c] for c in cands])
            ref += -logits.log_softmax(0)[0]
        assert torch.allclose(loss, ref / batch, atol=1e-5)

        scores = model.full_sort_scores(seq_output, history=item_seq)
        for b in range(batch):
            for i in item_seq[b].tolist():
                if i > 0:
                    assert scores[b, i - 1] == float("-inf")
        hit, ndcg = hit_and_ndcg_at_k(scores, pos_items, k=10)
        ref_hits = 0
        for b in range(batch):
            s = scores[b, int(pos_items[b]) - 1]
            ref_hits += int(sum(1 for v in scores[b].tolist() if v > s) < 10)
        assert abs(hit - ref_hits / batch) < 1e-6 and 0.0 <= ndcg <= hit

    counts = item_popularity(item_seq, n_items)
    for i in range(1, n_items):
        assert int(counts[i]) == sum(1 for v in item_seq.flatten().tolist() if v == i)
    print("ok")
