import torch


def get_token_bin_counts_and_mask(tokens, vocab_size, num_seqs):
    # tokens: [num_seqs, max_len], padded with vocab_size
    bin_counts = torch.zeros((num_seqs, vocab_size + 1), dtype=torch.long)
    bin_counts.scatter_add_(1, tokens, torch.ones_like(tokens))
    bin_counts = bin_counts[:, :vocab_size]  # [num_seqs, vocab_size]
    return bin_counts, bin_counts > 0


def apply_penalties(logits, output_tokens, presence_penalty, frequency_penalty):
    # logits: [num_rows, vocab_size], output_tokens: [num_rows, max_len]
    num_rows, vocab_size = logits.shape
    counts, seen = get_token_bin_counts_and_mask(output_tokens, vocab_size, num_rows)
    logits = logits - frequency_penalty * counts
    return logits - presence_penalty * seen


def grammar_accepts(prefix_len, token):
    return token % 3 != 0 or prefix_len == 0


def validate_spec_tokens(spec_token_ids):
    valid = {}
    for req, draft in spec_token_ids.items():
        keep = []
        for tok in draft:
            if not grammar_accepts(len(keep), tok):
                break
            keep.append(tok)
        valid[req] = keep
    return valid


def build_penalty_rows(output_token_ids, spec_token_ids, vocab_size):
    # one row per verified position: the bonus row plus one row per draft token
    rows = []
    for req, out in output_token_ids.items():
        draft = spec_token_ids[req]
        rows.extend(out + draft[:k] for k in range(len(draft) + 1))
    width = max(len(r) for r in rows)
    return torch.tensor([r + [vocab_size] * (width - len(r)) for r in rows])  # [num_rows, width]


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_size = 32
    output_token_ids = {"req-0": [4, 8, 8, 1], "req-1": [2, 5], "req-2": [7, 7, 7, 10, 11]}
    scheduled_spec = {"req-0": [5, 9, 3, 8], "req-1": [7, 6, 2], "req-2": [1, 4, 4, 15, 2]}

    valid_spec = validate_spec_tokens(scheduled_spec)
    spec_for_batch = valid_spec
    num_rows = sum(len(v) + 1 for v in valid_spec.values())
    logits = torch.randn(num_rows, vocab_size)  # [num_rows, vocab_size]

    tokens = build_penalty_rows(output_token_ids, spec_for_batch, vocab_size)
    penalized = apply_penalties(logits, tokens, presence_penalty=0.5, frequency_penalty=0.25)

    ref = logits.clone()
    row = 0
    for req, out in output_token_ids.items():
        for k in range(len(valid_spec[req]) + 1):
            history = out + valid_spec[req][:k]
            for t in set(history):
                ref[row, t] -= 0.25 * history.count(t) + 0.5
            row += 1
    assert torch.allclose(penalized, ref, atol=1e-6), (penalized - ref).abs().max()
    print("ok")
