import torch
import torch.nn as nn


def flatten_and_batch_shift_indices(indices, sequence_length):
    # indices: (batch_size, num_spans) -> flat positions in a (batch_size * sequence_length) table
    offsets = torch.arange(indices.size(0), device=indices.device) * sequence_length
    return (indices + offsets.unsqueeze(1)).view(-1)


def batched_index_select(target, indices):
    # target: (batch_size, sequence_length, dim), indices: (batch_size, num_spans)
    batch_size, sequence_length, dim = target.size()
    flat_indices = flatten_and_batch_shift_indices(indices, sequence_length)
    flat_target = target.reshape(batch_size * sequence_length, dim)
    selected = flat_target.index_select(0, flat_indices)
    # (batch_size, num_spans, dim)
    return selected.view(indices.size(0), indices.size(1), dim)


class BidirectionalEndpointSpanExtractor(nn.Module):
    def __init__(self, input_dim):
        super().__init__()
        self.input_dim = input_dim
        # learned vectors used when a span touches the sequence boundary
        self.start_sentinel = nn.Parameter(torch.randn(1, 1, input_dim // 2))
        self.end_sentinel = nn.Parameter(torch.randn(1, 1, input_dim // 2))

    def forward(self, sequence_tensor, span_indices, sequence_lengths):
        # sequence_tensor: (batch_size, seq_len, input_dim) from a BiLSTM
        # span_indices: (batch_size, num_spans, 2), inclusive [start, end]
        forward_seq, backward_seq = sequence_tensor.split(self.input_dim // 2, dim=-1)
        span_starts, span_ends = [idx.squeeze(-1) for idx in span_indices.split(1, dim=-1)]

        # forward direction: the state just before the span starts (exclusive start)
        exclusive_span_starts = span_starts - 1
        # (batch_size, num_spans, 1): spans at position 0 use the start sentinel instead of index -1
        start_sentinel_mask = (exclusive_span_starts == -1).unsqueeze(-1)
        exclusive_span_starts = exclusive_span_starts * ~start_sentinel_mask.squeeze(-1)
        # backward direction: the state just after the span ends (exclusive end)
        exclusive_span_ends = span_ends + 1
        # (batch_size, num_spans)
        end_sentinel_mask = (exclusive_span_ends >= sequence_lengths.unsqueeze(-1)).unsqueeze(-1)
        exclusive_span_ends = exclusive_span_ends * ~end_sentinel_mask.squeeze(-1)

        # (batch_size, num_spans, input_dim / 2)
        forward_start = batched_index_select(forward_seq, exclusive_span_starts)
        forward_end = batched_index_select(forward_seq, span_ends)
        backward_start = batched_index_select(backward_seq, exclusive_span_ends)
        backward_end = batched_index_select(backward_seq, span_starts)

        forward_start = torch.where(start_sentinel_mask, self.start_sentinel, forward_start)
        backward_start = torch.where(end_sentinel_mask, self.end_sentinel, backward_start)
        forward_repr = forward_end - forward_start
        backward_repr = backward_end - backward_start
        # (batch_size, num_spans, input_dim)
        return torch.cat([forward_repr, backward_repr], dim=-1)


def reference(extractor, sequence_tensor, span_indices, sequence_lengths):
    half = extractor.input_dim // 2
    out = torch.zeros(span_indices.shape[:2] + (extractor.input_dim,))
    for b in range(span_indices.size(0)):
        for s in range(span_indices.size(1)):
            start, end = span_indices[b, s].tolist()
            fwd, bwd = sequence_tensor[b, :, :half], sequence_tensor[b, :, half:]
            f_start = extractor.start_sentinel[0, 0] if start == 0 else fwd[start - 1]
            b_start = extractor.end_sentinel[0, 0] if end + 1 >= sequence_lengths[b] else bwd[end + 1]
            out[b, s] = torch.cat([fwd[end] - f_start, bwd[start] - b_start])
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.LSTM(8, 6, batch_first=True, bidirectional=True)
    tokens = torch.randn(3, 7, 8)
    sequence_tensor, _ = encoder(tokens)
    lengths = torch.tensor([7, 7, 5])
    spans = torch.tensor([[[1, 2], [3, 6]],
                          [[0, 1], [2, 4]],
                          [[0, 0], [3, 4]]])
    extractor = BidirectionalEndpointSpanExtractor(12)
    with torch.no_grad():
        out = extractor(sequence_tensor, spans, lengths)
        ref = reference(extractor, sequence_tensor, spans, lengths)
    assert torch.allclose(out, ref, atol=1e-6)
    print("ok")
