"""Heads and losses for a SASRec/BERT4Rec-style sequential recommender.

Sequences are right-padded with item id 0; the mask token id is ``n_items``.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def gather_indexes(output, gather_index):
    """Gather the vector at one position of every sequence.

    Args:
        output (torch.FloatTensor): ``[B, L, H]`` transformer output.
        gather_index (torch.LongTensor): ``[B]`` position to take per sequence.

    Returns:
        torch.FloatTensor: ``[B, H]``.
    """
    gather_index = gather_index.view(-1, 1, 1).expand(-1, -1, output.shape[-1])
    return output.gather(dim=1, index=gather_index).squeeze(1)


def gather_masked_positions(output, masked_index):
    """Vectors at the masked positions used for the cloze loss.

    Args:
        output (torch.FloatTensor): ``[B, L, H]``.
        masked_index (torch.LongTensor): ``[B, M]`` positions of the masked items.

    Returns:
        torch.FloatTensor: ``[B, M, H]``.
    """
    index = masked_index.unsqueeze(-1).expand(-1, -1, output.size(-1))
    return torch.gather(output, 1, index)


def smoothed_targets(targets, n_classes, smoothing):
    """Label-smoothed one-hot rows, ``[N, n_classes]``."""
    dist = torch.full((targets.size(0), n_classes), smoothing / (n_classes - 1), device=targets.device)
    return dist.scatter_(1, targets.long().unsqueeze(1), 1.0 - smoothing)


def next_item_logprobs(logits, item_seq):
    """Log-probability of each next item under the causal head.

    ``logits[:, t]`` predicts ``item_seq[:, t + 1]``.

    Args:
        logits (torch.FloatTensor): ``[B, L, V]``.
        item_seq (torch.LongTensor): ``[B, L]``.

    Returns:
        torch.FloatTensor: ``[B, L - 1]``.
    """
    logprobs = logits[:, :-1].log_softmax(dim=-1)
    return torch.take_along_dim(logprobs, item_seq[:, 1:].unsqueeze(-1), dim=-1).squeeze(-1)


def reorder_beam_state(state, beam_origin):
    """Reorder a batch-first recurrent/kv state ``[B*K, ...]`` to follow the surviving beams."""
    return state.index_select(0, beam_origin)


class TinySequentialRecommender(nn.Module):
    def __init__(self, n_items, hidden, max_len):
        super().__init__()
        self.n_items = n_items
        self.item_embedding = nn.Embedding(n_items + 1, hidden, padding_idx=0)
        self.position_embedding = nn.Embedding(max_len, hidden)
        layer = nn.TransformerEncoderLayer(hidden, nhead=2, dim_feedforward=2 * hidden, batch_first=True, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)

    def forward(self, item_seq):
        positions = torch.arange(item_seq.size(1), device=item_seq.device).unsqueeze(0)
        h = self.item_embedding(item_seq) + self.position_embedding(positions)
        return self.encoder(h, src_key_padding_mask=item_seq == 0)

    def full_sort_scores(self, item_seq, item_seq_len):
        seq_output = gather_indexes(self(item_seq), item_seq_len - 1)  # [B, H]
        return seq_output @ self.item_embedding.weight[: self.n_items].t()  # [B, n_items]

    def cloze_loss(self, masked_item_seq, masked_index, pos_items, smoothing=0.1):
        seq_output = gather_masked_positions(self(masked_item_seq), masked_index)  # [B, M, H]
        logits = seq_output @ self.item_embedding.weight[: self.n_items].t()        # [B, M, n_items]
        valid = (pos_items > 0).view(-1)
        logits = logits.view(-1, self.n_items)[valid]
        targets = smoothed_targets(pos_items.view(-1)[valid], self.n_items, smoothing)
        return -(targets * logits.log_softmax(-1)).sum(-1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    n_items, B, L, H = 20, 3, 6, 8
    model = TinySequentialRecommender(n_items, H, L).eval()
    item_seq = torch.tensor([[3, 7, 9, 0, 0, 0], [4, 4, 12, 18, 5, 0], [11, 2, 0, 0, 0, 0]])
    item_seq_len = (item_seq > 0).sum(1)

    with torch.no_grad():
        out = model(item_seq)
        last = gather_indexes(out, item_seq_len - 1)
        assert torch.equal(last, torch.stack([out[b, item_seq_len[b] - 1] for b in range(B)]))

        masked_index = torch.tensor([[1, 2], [0, 3], [1, 0]])
        picked = gather_masked_positions(out, masked_index)
        ref = torch.stack([torch.stack([out[b, masked_index[b, m]] for m in range(2)]) for b in range(B)])
        assert torch.equal(picked, ref)

        targets = torch.tensor([3, 0, 7], dtype=torch.int32)
        dist = smoothed_targets(targets, 10, 0.1)
        for i in range(3):
            for c in range(10):
                expected = 0.9 if c == int(targets[i]) else 0.1 / 9
                assert abs(dist[i, c].item() - expected) < 1e-6

        logits = torch.randn(B, L, n_items + 1)
        lp = next_item_logprobs(logits, item_seq)
        full = logits.log_softmax(-1)
        for b in range(B):
            for t in range(L - 1):
                assert torch.isclose(lp[b, t], full[b, t, item_seq[b, t + 1]])

        state = torch.randn(B * 2, 4, H)
        origin = torch.tensor([1, 1, 2, 3, 5, 4])
        moved = reorder_beam_state(state, origin)
        assert all(torch.equal(moved[i], state[origin[i]]) for i in range(B * 2))

        scores = model.full_sort_scores(item_seq, item_seq_len)
        assert scores.shape == (B, n_items)

    masked_seq = item_seq.clone()
    masked_seq[0, 1] = n_items
    masked_seq[1, 3] = n_items
    loss = model.cloze_loss(masked_seq, torch.tensor([[1], [3], [0]]), torch.tensor([[7], [18], [0]]))
    assert torch.isfinite(loss)
    print("ok")
