import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class SpanEndpointScorer(nn.Module):
    """Scores candidate spans by the dot product of projected start and end token states."""

    def __init__(self, hidden_size: int):
        super().__init__()
        self.start_proj = nn.Linear(hidden_size, hidden_size)
        self.end_proj = nn.Linear(hidden_size, hidden_size)

    def forward(
        self,
        hidden: Float[Tensor, "batch seq hidden"],
        span_starts: Int[Tensor, "batch spans"],
        span_ends: Int[Tensor, "batch spans"],
    ) -> Float[Tensor, "batch spans"]:
        hs = self.start_proj(hidden)
        he = self.end_proj(hidden)
        start_h = hs.gather(1, span_starts.unsqueeze(-1).expand(-1, -1, hs.size(-1)))
        end_h = he.gather(1, span_ends.unsqueeze(-1).expand(-1, -1, he.size(-1)))
        return (start_h * end_h).sum(-1)


def best_spans(scorer: SpanEndpointScorer, hidden: Float[Tensor, "batch seq hidden"], max_width: int = 3):
    seq = hidden.size(1)
    pairs = [(i, j) for i in range(seq) for j in range(i, min(seq, i + max_width))]
    starts = torch.tensor([p[0] for p in pairs]).expand(hidden.size(0), -1)
    ends = torch.tensor([p[1] for p in pairs]).expand(hidden.size(0), -1)
    scores = scorer(hidden, starts, ends)
    return scores, starts, ends


if __name__ == "__main__":
    torch.manual_seed(0)
    scorer = SpanEndpointScorer(hidden_size=16)
    hidden = torch.randn(2, 7, 16)
    with torch.no_grad():
        scores, starts, ends = best_spans(scorer, hidden)
        hs, he = scorer.start_proj(hidden), scorer.end_proj(hidden)
        ref = torch.stack([
            torch.stack([hs[b, s] @ he[b, e] for s, e in zip(starts[b].tolist(), ends[b].tolist())])
            for b in range(2)
        ])
    assert torch.allclose(scores, ref, atol=1e-5)
    print("ok")
