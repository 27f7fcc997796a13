"""Coreference-style span scoring and pruning with batched index selection (correct usage)."""
import torch
import torch.nn as nn


def flatten_and_batch_shift_indices(indices, sequence_length):
    # indices: (batch_size, d_1, ..., d_n) positions into a sequence of length sequence_length
    offsets = torch.arange(indices.size(0), device=indices.device) * sequence_length
    for _ in range(indices.dim() - 1):
        offsets = offsets.unsqueeze(1)
    return (indices + offsets).view(-1)


def batched_index_select(target, indices):
    # target: (batch_size, sequence_length, embedding_size)
    # indices: (batch_size, d_1, ..., d_n)
    # returns: (batch_size, d_1, ..., d_n, embedding_size)
    flat_indices = flatten_and_batch_shift_indices(indices, target.size(1))
    flat_target = target.reshape(-1, target.size(-1))
    selected = flat_target.index_select(0, flat_indices)
    return selected.view(*indices.size(), target.size(-1))


class EndpointSpanExtractor(nn.Module):
    def __init__(self, input_dim, width_buckets, width_dim):
        super().__init__()
        self.width_embedding = nn.Embedding(width_buckets, width_dim)
        self.width_buckets = width_buckets
        self.output_dim = 2 * input_dim + width_dim

    def forward(self, sequence, spans):
        # sequence: (batch_size, seq_len, input_dim)
        # spans: (batch_size, num_spans, 2), inclusive [start, end]
        starts, ends = spans[..., 0], spans[..., 1]
        start_emb = batched_index_select(sequence, starts)  # (batch_size, num_spans, input_dim)
        # the same rows through gather, with the index expanded over the feature dim
        end_index = ends.unsqueeze(-1).expand(-1, -1, sequence.size(-1))
        end_emb = sequence.gather(1, end_index)  # (batch_size, num_spans, input_dim)
        widths = (ends - starts).clamp(max=self.width_buckets - 1)
        return torch.cat([start_emb, end_emb, self.width_embedding(widths)], dim=-1)


class SpanPruner(nn.Module):
    def __init__(self, span_dim):
        super().__init__()
        self.scorer = nn.Linear(span_dim, 1)

    def forward(self, span_emb, span_mask, num_keep):
        # span_emb: (batch_size, num_spans, span_dim); span_mask: (batch_size, num_spans) bool
        scores = self.scorer(span_emb).squeeze(-1)  # (batch_size, num_spans)
        scores = scores.masked_fill(~span_mask, float("-inf"))
        _, top_idx = scores.topk(num_keep, dim=1)  # (batch_size, num_keep)
        # keep the kept spans in document order
        top_idx, _ = top_idx.sort(dim=1)
        top_emb = span_emb.gather(1, top_idx.unsqueeze(-1).expand(-1, -1, span_emb.size(-1)))
        top_scores = scores.gather(1, top_idx)  # (batch_size, num_keep)
        top_mask = span_mask.gather(1, top_idx)
        # dense score map with only the kept spans filled in
        kept = torch.full_like(scores, float("-inf")).scatter(1, top_idx, top_scores)
        return top_emb, top_scores, top_mask, top_idx, kept


def enumerate_spans(seq_len, max_width):
    spans = [(s, e) for s in range(seq_len) for e in range(s, min(seq_len, s + max_width))]
    return torch.tensor(spans, dtype=torch.long)


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, seq_len, hidden = 2, 9, 6
    sequence = torch.randn(batch_size, seq_len, hidden)
    lengths = torch.tensor([9, 6])
    spans = enumerate_spans(seq_len, max_width=3).unsqueeze(0).expand(batch_size, -1, -1).contiguous()
    span_mask = spans[..., 1] < lengths.unsqueeze(1)

    extractor = EndpointSpanExtractor(hidden, width_buckets=4, width_dim=3)
    pruner = SpanPruner(extractor.output_dim)
    with torch.no_grad():
        span_emb = extractor(sequence, spans)
        top_emb, top_scores, top_mask, top_idx, kept = pruner(span_emb, span_mask, num_keep=5)

    for b in range(batch_size):
        for s in range(spans.size(1)):
            start, end = spans[b, s].tolist()
            assert torch.equal(span_emb[b, s, :hidden], sequence[b, start])
            assert torch.equal(span_emb[b, s, hidden:2 * hidden], sequence[b, end])
        with torch.no_grad():
            scores = pruner.scorer(span_emb[b]).squeeze(-1)
        valid = [s for s in range(spans.size(1)) if bool(span_mask[b, s])]
        best = sorted(sorted(valid, key=lambda s: -float(scores[s]))[:5])
        assert top_idx[b].tolist() == best
        for j, s in enumerate(best):
            assert torch.equal(top_emb[b, j], span_emb[b, s])
            assert float(top_scores[b, j]) == float(scores[s])
            assert bool(top_mask[b, j])
        for s in range(spans.size(1)):
            expected = float(scores[s]) if s in best else float("-inf")
            assert float(kept[b, s]) == expected
    print("ok")
