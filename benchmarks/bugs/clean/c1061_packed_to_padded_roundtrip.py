"""Packed (varlen) <-> padded conversion with scatter/gather, plus per-sequence max pooling."""
import torch


def packed_to_padded(tokens, cu_seqlens, pad_value=0.0):
    # tokens: [T, D] packed rows; cu_seqlens: [B + 1] int32 offsets
    lengths = (cu_seqlens[1:] - cu_seqlens[:-1]).long()           # [B]
    batch, width = lengths.numel(), int(lengths.max())
    seq_id = torch.repeat_interleave(torch.arange(batch), lengths)  # [T]
    pos = torch.arange(tokens.size(0)) - cu_seqlens[:-1].long()[seq_id]  # [T]
    padded = tokens.new_full((batch, width, tokens.size(1)), pad_value)
    padded.index_put_((seq_id, pos), tokens)   # (seq, pos) pairs are unique
    return padded, seq_id, pos


def padded_to_packed(padded, seq_id, pos):
    # flat row index of every real token
    flat = padded.reshape(-1, padded.size(-1))                      # [B*W, D]
    row = seq_id * padded.size(1) + pos                             # [T], int64
    return flat.gather(0, row.unsqueeze(-1).expand(-1, flat.size(1)))


def segment_max(tokens, seq_id, batch):
    out = tokens.new_zeros(batch, tokens.size(1))
    idx = seq_id.unsqueeze(-1).expand_as(tokens)
    return out.scatter_reduce(0, idx, tokens, reduce="amax", include_self=False)


if __name__ == "__main__":
    torch.manual_seed(0)
    lens = [3, 1, 4]
    cu = torch.tensor([0, 3, 4, 8], dtype=torch.int32)
    tokens = torch.randn(8, 5) - 3.0     # all negative: a zero init would leak into amax
    padded, seq_id, pos = packed_to_padded(tokens, cu)
    back = padded_to_packed(padded, seq_id, pos)
    pooled = segment_max(tokens, seq_id, batch=3)

    start = 0
    for b, n in enumerate(lens):
        for t in range(4):
            if t < n:
                assert torch.equal(padded[b, t], tokens[start + t])
            else:
                assert not padded[b, t].any()
        for d in range(5):
            assert pooled[b, d].item() == max(tokens[start + i, d].item() for i in range(n))
        start += n
    assert torch.equal(back, tokens)
    print("ok")
