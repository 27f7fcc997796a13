import torch


def get_token_bin_counts(output_tokens: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """Counts how often each vocabulary id was generated so far.

    Args:
        output_tokens: (num_seqs, max_output_len) generated ids, right-padded with ``vocab_size``.
        vocab_size: size of the vocabulary.

    Returns:
        (num_seqs, vocab_size) number of occurrences of every id.
    """
    bin_counts = torch.zeros(output_tokens.size(0), vocab_size + 1, dtype=torch.long)
    bin_counts.scatter_add_(1, output_tokens, torch.ones_like(output_tokens))
    return bin_counts[:, :vocab_size]


def apply_penalties(logits, output_tokens, frequency_penalty, presence_penalty):
    """OpenAI-style penalties.

    Args:
        logits: (num_seqs, vocab_size) next-token logits.
        output_tokens: (num_seqs, max_output_len) padded generated ids.
        frequency_penalty: (num_seqs,) subtracted once per occurrence.
        presence_penalty: (num_seqs,) subtracted once if the id occurred at all.
    """
    counts = get_token_bin_counts(output_tokens, logits.size(1))
    logits = logits - frequency_penalty[:, None] * counts
    logits = logits - presence_penalty[:, None] * (counts > 0)
    return logits


if __name__ == "__main__":
    vocab_size = 10
    logits = torch.zeros(2, vocab_size)
    outputs = torch.tensor([[3, 3, 3, 5, 3, 10, 10], [1, 2, 2, 7, 7, 7, 7]])
    penalized = apply_penalties(logits, outputs, torch.tensor([0.5, 0.5]), torch.tensor([0.1, 0.1]))
    for r in range(2):
        for v in range(vocab_size):
            c = sum(1 for t in outputs[r].tolist() if t == v)
            ref = -0.5 * c - (0.1 if c > 0 else 0.0)
            assert abs(penalized[r, v].item() - ref) < 1e-6
    print("ok")
