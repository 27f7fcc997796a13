import torch
import torch.nn as nn


class SpanEndpointScorer(nn.Module):
    """Scores candidate mention spans against a learned entity-type embedding."""

    def __init__(self, hidden_size: int, num_types: int):
        super().__init__()
        self.hidden_size = hidden_size
        self.type_emb = nn.Embedding(num_types, hidden_size)

    def span_repr(self, encoded, start_ids, end_ids):
        start = encoded.gather(1, start_ids.view(-1, 1, 1).expand(-1, 1, encoded.size(-1))).squeeze(1)
        end = encoded.gather(1, end_ids.view(-1, 1, 1).expand(-1, 1, encoded.size(-1))).squeeze(1)
        return 0.5 * (start + end)

    def forward(self, encoded, start_ids, end_ids, type_ids):
        span = self.span_repr(encoded, start_ids, end_ids)
        return (span * self.type_emb(type_ids)).sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    scorer = SpanEndpointScorer(16, 4)
    encoded = torch.randn(3, 7, 16)
    start_ids = torch.tensor([0, 2, 4])
    end_ids = torch.tensor([1, 5, 6])
    type_ids = torch.tensor([0, 3, 1])
    scores = scorer(encoded, start_ids, end_ids, type_ids)
    with torch.no_grad():
        for b in range(3):
            ref = 0.0
            for h in range(16):
                span_h = 0.5 * (encoded[b, start_ids[b], h] + encoded[b, end_ids[b], h])
                ref += float(span_h * scorer.type_emb.weight[type_ids[b], h])
            assert abs(scores[b].item() - ref) < 1e-4
    print("ok")
