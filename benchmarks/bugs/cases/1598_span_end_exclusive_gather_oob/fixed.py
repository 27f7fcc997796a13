import torch
import torch.nn as nn


class BidirectionalEndpointSpanExtractor(nn.Module):
    """Span = [forward(end) - forward(start - 1); backward(start) - backward(end + 1)]."""

    def __init__(self, input_dim):
        super().__init__()
        self.half = input_dim // 2
        self.start_sentinel = nn.Parameter(torch.randn(1, 1, self.half))
        self.end_sentinel = nn.Parameter(torch.randn(1, 1, self.half))

    def forward(self, sequence_tensor, span_indices, sequence_lengths):
        # sequence_tensor: (batch, seq_len, input_dim); span_indices: (batch, num_spans, 2) inclusive
        forward_seq, backward_seq = sequence_tensor.split(self.half, dim=-1)
        span_starts, span_ends = span_indices.unbind(-1)  # (batch, num_spans)
        exclusive_span_starts = span_starts - 1  # (batch, num_spans)
        exclusive_span_ends = span_ends + 1  # (batch, num_spans)
        if (exclusive_span_starts < -1).any() or (exclusive_span_ends > sequence_lengths.unsqueeze(-1)).any():
            raise ValueError("Adjusted span indices must lie inside the length of the sequence tensor")

        start_sentinel_mask = (exclusive_span_starts == -1).unsqueeze(-1)  # (batch, num_spans, 1)
        safe_starts = exclusive_span_starts.clamp(min=0)
        fwd_start = forward_seq.gather(1, safe_starts.unsqueeze(-1).expand(-1, -1, self.half))
        fwd_start = torch.where(start_sentinel_mask, self.start_sentinel, fwd_start)
        fwd_end = forward_seq.gather(1, span_ends.unsqueeze(-1).expand(-1, -1, self.half))

        bwd_start = backward_seq.gather(1, span_starts.unsqueeze(-1).expand(-1, -1, self.half))
        end_sentinel_mask = (exclusive_span_ends >= sequence_lengths.unsqueeze(-1)).unsqueeze(-1)
        safe_ends = torch.minimum(exclusive_span_ends, (sequence_lengths - 1).unsqueeze(-1))
        bwd_end = backward_seq.gather(1, safe_ends.unsqueeze(-1).expand(-1, -1, self.half))
        bwd_end = torch.where(end_sentinel_mask, self.end_sentinel, bwd_end)
        return torch.cat([fwd_end - fwd_start, bwd_start - bwd_end], dim=-1)  # (batch, num_spans, input_dim)


if __name__ == "__main__":
    torch.manual_seed(0)
    extractor = BidirectionalEndpointSpanExtractor(input_dim=8)
    seq = torch.randn(2, 7, 8)  # (batch, seq_len, dim)
    lengths = torch.tensor([7, 5])
    spans = torch.tensor([[[0, 2], [3, 6]], [[1, 1], [2, 4]]])  # (batch, num_spans, 2)
    out = extractor(seq, spans, lengths).detach()
    h = 4
    for b in range(2):
        for k in range(2):
            s, e = spans[b, k].tolist()
            L = lengths[b].item()
            fs = extractor.start_sentinel[0, 0] if s == 0 else seq[b, s - 1, :h]
            be = extractor.end_sentinel[0, 0] if e + 1 >= L else seq[b, e + 1, h:]
            ref = torch.cat([seq[b, e, :h] - fs, seq[b, s, h:] - be])
            assert torch.allclose(out[b, k], ref.detach()), (b, k)
    print("ok")
