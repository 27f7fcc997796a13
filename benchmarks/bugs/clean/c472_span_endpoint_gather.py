import torch
import torch.nn as nn


class SpanClassifier(nn.Module):
    def __init__(self, hidden, n_labels):
        super().__init__()
        self.proj = nn.Linear(3 * hidden, n_labels)

    def forward(self, hidden_states, spans):
        # hidden_states: [B, T, H]; spans: [B, S, 2] inclusive (start, end) token positions
        B, T, H = hidden_states.shape
        S = spans.size(1)
        starts = spans[..., 0].unsqueeze(-1).expand(B, S, H)
        ends = spans[..., 1].unsqueeze(-1).expand(B, S, H)
        start_h = hidden_states.gather(1, starts)                      # [B, S, H]
        end_h = hidden_states.gather(1, ends)                          # [B, S, H]
        # mean over the span with a cumulative sum, shifted by one so position 0 works
        csum = torch.cat([hidden_states.new_zeros(B, 1, H), hidden_states.cumsum(1)], dim=1)
        span_sum = csum.gather(1, ends + 1) - csum.gather(1, starts)
        width = (spans[..., 1] - spans[..., 0] + 1).unsqueeze(-1).to(hidden_states.dtype)
        feats = torch.cat([start_h, end_h, span_sum / width], dim=-1)
        return self.proj(feats), feats


def span_nll(logits, gold):
    # logits: [B, S, C], gold: [B, S]
    logp = logits.log_softmax(-1)
    return -logp.gather(-1, gold.unsqueeze(-1)).squeeze(-1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    B, T, H, S, C = 3, 12, 16, 4, 5
    hidden_states = torch.randn(B, T, H)
    starts = torch.randint(0, T, (B, S))
    ends = torch.minimum(starts + torch.randint(0, 4, (B, S)), torch.tensor(T - 1))
    spans = torch.stack([starts, ends], dim=-1)
    gold = torch.randint(0, C, (B, S))
    model = SpanClassifier(H, C)
    logits, feats = model(hidden_states, spans)
    loss = span_nll(logits, gold)

    terms = []
    for b in range(B):
        for s in range(S):
            i, j = spans[b, s].tolist()
            ref = torch.cat([hidden_states[b, i], hidden_states[b, j], hidden_states[b, i : j + 1].mean(0)])
            assert torch.allclose(feats[b, s], ref, atol=1e-5)
            terms.append(-torch.log_softmax(model.proj(ref), dim=-1)[gold[b, s]])
    assert torch.allclose(loss, torch.stack(terms).mean(), atol=1e-5)
    print("ok")
