import torch


class SpanCandidateFilter:
    """Keeps span candidates whose label confidence clears a threshold.

    Args:
        min_confidence: candidates whose best label probability is below this are dropped.
    """

    def __init__(self, min_confidence: float = 0.5):
        self.min_confidence = min_confidence

    def select(self, scores: torch.Tensor, spans: list) -> tuple:
        """Filter candidate spans of one sentence.

        Args:
            scores: (num_candidates, num_labels) label probabilities per candidate span.
            spans: list of num_candidates (start, end) tuples.

        Returns:
            kept_scores: (num_kept, num_labels) rows of ``scores`` for the kept candidates.
            kept_spans: list of num_kept spans.
        """
        best = scores.max(dim=-1).values.tolist()
        filtered_indices = [i for i, p in enumerate(best) if p >= self.min_confidence]
        index = torch.tensor(filtered_indices, dtype=torch.long, device=scores.device)
        kept_scores = torch.index_select(scores, 0, index)
        kept_spans = [spans[i] for i in filtered_indices]
        return kept_scores, kept_spans


def decode_document(sentences, span_filter):
    results = []
    for scores, spans in sentences:
        kept_scores, kept_spans = span_filter.select(scores, spans)
        labels = kept_scores.argmax(dim=-1).tolist()
        results.append(list(zip(kept_spans, labels)))
    return results


def reference(sentences, min_confidence):
    out = []
    for scores, spans in sentences:
        rows = []
        for i in range(scores.shape[0]):
            row = scores[i].tolist()
            if max(row) >= min_confidence:
                rows.append((spans[i], row.index(max(row))))
        out.append(rows)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    confident = torch.tensor([[0.9, 0.05, 0.05], [0.2, 0.3, 0.5], [0.1, 0.8, 0.1]])
    unsure = torch.tensor([[0.4, 0.3, 0.3], [0.34, 0.33, 0.33]])
    doc = [
        (confident, [(0, 2), (3, 4), (5, 7)]),
        (unsure, [(0, 1), (2, 5)]),
    ]
    got = decode_document(doc, SpanCandidateFilter(min_confidence=0.5))
    assert got == reference(doc, 0.5), got
    print("ok")
