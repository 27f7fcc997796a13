import torch
import torch.nn as nn


def segment_ids_from_lengths(lengths):
    """lengths: (num_segments,) -> (total,) segment id of every packed row."""
    return torch.repeat_interleave(torch.arange(lengths.numel()), lengths)


class RaggedPooler(nn.Module):
    """Mean / max pooling of packed token rows into one vector per document."""

    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, packed, lengths):
        # packed: (total, dim)   lengths: (num_docs,)
        seg = segment_ids_from_lengths(lengths)                      # (total,)
        h = self.proj(packed)                                        # (total, dim)
        num_docs, dim = lengths.numel(), h.size(1)
        sums = torch.zeros(num_docs, dim).index_add_(0, seg, h)      # (num_docs, dim)
        mean = sums / lengths.clamp(min=1).unsqueeze(1).to(h.dtype)
        idx = seg.unsqueeze(1).expand(-1, dim)                       # (total, dim)
        mx = torch.full((num_docs, dim), float("-inf")).scatter_reduce(
            0, idx, h, reduce="amax", include_self=False
        )
        return mean, mx


def keep_topk_logits(logits, k):
    # logits: (batch, vocab) -> same shape, everything outside the top-k set to -inf
    top_idx = logits.topk(k, dim=-1).indices                         # (batch, k), unique per row
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter_(1, top_idx, True)
    return logits.masked_fill(~keep, float("-inf"))


def pick_label_logprob(logits, labels):
    # logits: (batch, vocab), labels: (batch,)
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(1, labels.unsqueeze(1)).squeeze(1)            # (batch,)


if __name__ == "__main__":
    torch.manual_seed(0)
    lengths = torch.tensor([3, 1, 4])
    packed = torch.randn(int(lengths.sum()), 5)
    pooler = RaggedPooler(5)
    mean, mx = pooler(packed, lengths)
    h = pooler.proj(packed)
    start = 0
    for d, n in enumerate(lengths.tolist()):
        rows = h[start:start + n]
        assert torch.allclose(mean[d], rows.mean(0), atol=1e-6)
        assert torch.allclose(mx[d], rows.max(0).values)
        start += n

    logits = torch.randn(2, 7)
    masked = keep_topk_logits(logits, k=3)
    for b in range(2):
        order = sorted(range(7), key=lambda j: -logits[b, j].item())[:3]
        for j in range(7):
            if j in order:
                assert masked[b, j] == logits[b, j]
            else:
                assert masked[b, j] == float("-inf")

    labels = torch.tensor([4, 0])
    lp = pick_label_logprob(logits, labels)
    for b in range(2):
        row = logits[b]
        ref = row[labels[b]] - torch.logsumexp(row, 0)
        assert abs(lp[b].item() - ref.item()) < 1e-6
    print("ok")
