"""Span representations for span-based NER / coreference, in the style of AllenNLP's span extractors."""
from typing import Optional, Tuple

import torch
import torch.nn as nn


def flatten_and_batch_shift_indices(indices: torch.Tensor, sequence_length: int) -> torch.Tensor:
    """
    Shift per-example indices so that they index into a `(batch_size * sequence_length, ...)` tensor.

    # Parameters

    indices : `torch.LongTensor`, shape `(batch_size, d_1, ..., d_n)`
        Indices into the sequence dimension, all in `[0, sequence_length)`.
    sequence_length : `int`

    # Returns

    `torch.LongTensor`, shape `(batch_size * d_1 * ... * d_n,)`
    """
    if indices.numel() and (int(indices.max()) >= sequence_length or int(indices.min()) < 0):
        raise ValueError(f"All elements in indices should be in range [0, {sequence_length - 1}]")
    offsets = torch.arange(indices.size(0), device=indices.device) * sequence_length
    for _ in range(indices.dim() - 1):
        offsets = offsets.unsqueeze(1)
    return (indices + offsets).view(-1)


def batched_index_select(target: torch.Tensor, indices: torch.LongTensor) -> torch.Tensor:
    """
    # Parameters

    target : `torch.Tensor`, shape `(batch_size, sequence_length, embedding_size)`
    indices : `torch.LongTensor`, shape `(batch_size, d_1, ..., d_n)`

    # Returns

    `torch.Tensor`, shape `(batch_size, d_1, ..., d_n, embedding_size)`
    """
    flat = flatten_and_batch_shift_indices(indices, target.size(1))
    flat_target = target.reshape(-1, target.size(-1))
    selected = flat_target.index_select(0, flat)
    return selected.view(*indices.size(), target.size(-1))


class EndpointSpanExtractor(nn.Module):
    """
    Represents a span by its start and end token embeddings plus a learned span-width embedding.

    # Parameters

    input_dim : `int`
    num_width_embeddings : `int`
    span_width_dim : `int`
    """

    def __init__(self, input_dim: int, num_width_embeddings: int = 10, span_width_dim: int = 8) -> None:
        super().__init__()
        self.input_dim = input_dim
        self.num_width_embeddings = num_width_embeddings
        self.width_embedding = nn.Embedding(num_width_embeddings, span_width_dim)

    def forward(self, sequence: torch.Tensor, spans: torch.LongTensor, span_mask: Optional[torch.BoolTensor] = None) -> torch.Tensor:
        """
        # Parameters

        sequence : `torch.Tensor`, shape `(batch_size, seq_len, input_dim)`
        spans : `torch.LongTensor`, shape `(batch_size, num_spans, 2)`, inclusive `[start, end]`
        span_mask : `torch.BoolTensor`, shape `(batch_size, num_spans)`

        # Returns

        `torch.Tensor`, shape `(batch_size, num_spans, 2 * input_dim + span_width_dim)`
        """
        starts, ends = spans.unbind(-1)  # each (batch_size, num_spans)
        if span_mask is not None:
            # padded spans may hold -1; point them at token 0 before selecting
            starts = starts.masked_fill(~span_mask, 0)
            ends = ends.masked_fill(~span_mask, 0)

        start_emb = torch.gather(sequence, 1, starts.unsqueeze(-1).expand(-1, -1, sequence.size(-1)))
        end_emb = batched_index_select(sequence, ends)

        widths = (ends - starts).clamp(min=0, max=self.num_width_embeddings - 1)
        out = torch.cat([start_emb, end_emb, self.width_embedding(widths)], dim=-1)
        if span_mask is not None:
            out = out * span_mask.unsqueeze(-1)
        return out


def max_pool_span_tokens(sequence: torch.Tensor, token_span_ids: torch.LongTensor, num_spans: int) -> torch.Tensor:
    """
    Max-pool token embeddings into their span (tokens outside any span carry id -1).

    # Parameters

    sequence : `torch.Tensor`, shape `(batch_size, seq_len, dim)`
    token_span_ids : `torch.LongTensor`, shape `(batch_size, seq_len)`
    num_spans : `int`

    # Returns

    `torch.Tensor`, shape `(batch_size, num_spans, dim)`; spans without tokens are zeros.
    """
    batch_size, _, dim = sequence.shape
    inside = token_span_ids >= 0
    # send outside tokens to an extra dump slot that is dropped afterwards
    slot = torch.where(inside, token_span_ids, torch.full_like(token_span_ids, num_spans))
    index = slot.unsqueeze(-1).expand(-1, -1, dim)
    pooled = sequence.new_zeros(batch_size, num_spans + 1, dim)
    pooled = pooled.scatter_reduce(1, index, sequence, reduce="amax", include_self=False)
    return pooled[:, :num_spans]


def top_antecedents(span_scores: torch.Tensor, pair_scores: torch.Tensor, k: int) -> Tuple[torch.Tensor, torch.LongTensor]:
    """
    # Parameters

    span_scores : `torch.Tensor`, shape `(batch_size, num_spans)`
    pair_scores : `torch.Tensor`, shape `(batch_size, num_spans, num_spans)`, a large negative value above the diagonal
    k : `int`

    # Returns

    scores `(batch_size, num_spans, k)` and antecedent indices `(batch_size, num_spans, k)`.
    """
    total = pair_scores + span_scores.unsqueeze(1)
    _, idx = total.topk(k, dim=-1)
    return torch.take_along_dim(total, idx, dim=-1), idx


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, seq_len, dim, num_spans = 2, 9, 6, 4
    sequence = torch.randn(batch_size, seq_len, dim)
    spans = torch.tensor([[[0, 1], [2, 4], [5, 5], [-1, -1]],
                          [[1, 3], [4, 8], [0, 0], [6, 7]]])
    span_mask = spans[..., 0] >= 0

    extractor = EndpointSpanExtractor(dim)
    reps = extractor(sequence, spans, span_mask)
    for b in range(batch_size):
        for s in range(num_spans):
            if not span_mask[b, s]:
                assert torch.all(reps[b, s] == 0)
                continue
            st, en = spans[b, s].tolist()
            width = extractor.width_embedding.weight[min(en - st, 9)]
            expected = torch.cat([sequence[b, st], sequence[b, en], width])
            assert torch.allclose(reps[b, s], expected)

    token_span_ids = torch.full((batch_size, seq_len), -1, dtype=torch.long)
    for b in range(batch_size):
        for s in range(num_spans):
            st, en = spans[b, s].tolist()
            if st >= 0:
                token_span_ids[b, st:en + 1] = s
    pooled = max_pool_span_tokens(sequence, token_span_ids, num_spans)
    for b in range(batch_size):
        for s in range(num_spans):
            toks = [t for t in range(seq_len) if token_span_ids[b, t] == s]
            if toks:
                expected = torch.stack([sequence[b, t] for t in toks]).max(0).values
            else:
                expected = torch.zeros(dim)
            assert torch.allclose(pooled[b, s], expected)

    span_scores = torch.randn(batch_size, num_spans)
    pair = torch.randn(batch_size, num_spans, num_spans)
    pair = pair.masked_fill(torch.ones(num_spans, num_spans, dtype=torch.bool).triu(diagonal=1), -1e4)
    scores, idx = top_antecedents(span_scores, pair, k=2)
    for b in range(batch_size):
        for i in range(num_spans):
            for j in range(2):
                a = idx[b, i, j].item()
                assert scores[b, i, j] == pair[b, i, a] + span_scores[b, a]

    print("ok")
