import torch
import torch.nn as nn


class SpanScorer(nn.Module):
    def __init__(self, hidden_size, num_labels, max_span_len):
        super().__init__()
        self.max_span_len = max_span_len
        self.classifier = nn.Linear(2 * hidden_size, num_labels)

    def forward(self, token_states, spans):
        # token_states: [T, H] contextual embeddings of one sentence
        # spans: list of (start, end) candidates, end exclusive
        starts = torch.tensor([s for s, _ in spans])
        ends = torch.tensor([e - 1 for _, e in spans])
        span_repr = torch.cat([token_states[starts], token_states[ends]], dim=-1)  # [S, 2H]
        scores = self.classifier(span_repr)  # [S, C]

        # keep only spans the decoder can label
        filtered_indices = [i for i, (s, e) in enumerate(spans) if e - s <= self.max_span_len]
        scores = torch.index_select(scores, 0, torch.tensor(filtered_indices, dtype=torch.long))  # [S_kept, C]
        return scores, filtered_indices


def predict(model, batch):
    predictions = []
    for token_states, spans in batch:
        scores, kept = model(token_states, spans)
        labels = scores.argmax(dim=-1).tolist()
        predictions.append([(spans[i], label) for i, label in zip(kept, labels)])
    return predictions


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SpanScorer(hidden_size=16, num_labels=5, max_span_len=3)
    batch = [
        (torch.randn(9, 16), [(0, 2), (1, 4), (2, 8), (5, 6)]),
        (torch.randn(12, 16), [(0, 6), (3, 11)]),  # only long candidates in this sentence
        (torch.randn(7, 16), [(4, 7), (0, 1)]),
    ]
    with torch.no_grad():
        predictions = predict(model, batch)
        for (token_states, spans), sentence in zip(batch, predictions):
            expected = []
            for s, e in spans:
                if e - s <= 3:
                    rep = torch.cat([token_states[s], token_states[e - 1]])
                    expected.append(((s, e), int(model.classifier(rep).argmax())))
            assert sentence == expected, (sentence, expected)
    print(predictions)
    print("ok")
