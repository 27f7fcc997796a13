import torch


def flatten_and_enumerate_spans(hidden, seq_lengths, max_span_length):
    """Enumerate candidate spans without spans over padding.

    Args:
        hidden: (batch_size, max_seq_len, hidden_size) token representations.
        seq_lengths: (batch_size,) number of real tokens per example.
    Returns:
        flat: (total_tokens, hidden_size) token representations without padding.
        start_indices, end_indices: (num_spans,) positions in the flattened token axis.
        batch_ids: (num_spans,) example of each span.
        token_offsets: (batch_size,) position of each example's first token in `flat`.
    """
    flat = torch.cat([hidden[i, :n] for i, n in enumerate(seq_lengths.tolist())])
    token_offsets = torch.cumsum(seq_lengths, 0) - seq_lengths
    starts, ends, batch_ids = [], [], []
    for i, n in enumerate(seq_lengths.tolist()):
        off = int(token_offsets[i])
        for s in range(n):
            for e in range(s, min(s + max_span_length, n)):
                starts.append(off + s)
                ends.append(off + e)
                batch_ids.append(i)
    return flat, torch.tensor(starts), torch.tensor(ends), torch.tensor(batch_ids), token_offsets


def unbatch_output(word_char_offsets, start_indices, end_indices, batch_ids, token_offsets, keep):
    """Map kept spans back to character offsets of each document.

    Args:
        word_char_offsets: list of (seq_len_i, 2) tensors with (char_start, char_end) per token.
        start_indices, end_indices, batch_ids: (num_spans,) as returned by the model.
        keep: (num_spans,) bool, spans predicted as entities.
    """
    results = []
    for i, offsets in enumerate(word_char_offsets):
        sel = keep & (batch_ids == i)
        starts = start_indices[sel] - token_offsets[i]
        ends = end_indices[sel] - token_offsets[i]
        char_starts = offsets.index_select(0, starts)[:, 0]
        char_ends = offsets.index_select(0, ends)[:, 1]
        results.append(list(zip(char_starts.tolist(), char_ends.tolist())))
    return results


if __name__ == "__main__":
    torch.manual_seed(0)
    seq_lengths = torch.tensor([5, 3, 4])
    hidden = torch.randn(3, 5, 16)
    word_char_offsets = []
    for n in seq_lengths.tolist():
        starts = torch.arange(n) * 6
        word_char_offsets.append(torch.stack([starts, starts + 4], dim=1))
    flat, s_idx, e_idx, b_ids, tok_off = flatten_and_enumerate_spans(hidden, seq_lengths, max_span_length=2)
    scorer = torch.nn.Linear(32, 1)
    with torch.no_grad():
        scores = scorer(torch.cat([flat.index_select(0, s_idx), flat.index_select(0, e_idx)], -1)).squeeze(-1)
    keep = scores > 0
    spans = unbatch_output(word_char_offsets, s_idx, e_idx, b_ids, tok_off, keep)
    ref = [[] for _ in range(len(seq_lengths))]
    for k in range(len(s_idx)):
        if keep[k]:
            i = int(b_ids[k])
            s, e = int(s_idx[k] - tok_off[i]), int(e_idx[k] - tok_off[i])
            ref[i].append((int(word_char_offsets[i][s, 0]), int(word_char_offsets[i][e, 1])))
    assert spans == ref, (spans, ref)
    print("ok")
