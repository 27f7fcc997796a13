import torch

SAMPLING_EPS = 1e-5


def build_sampling_tensors(seq_groups, vocab_size):
    repetition_penalties = [g["params"].get("repetition_penalty", 1.0) for g in seq_groups]
    do_penalties = any(abs(rp - 1.0) >= SAMPLING_EPS for rp in repetition_penalties)
    # one token row per sequence, in batch order, as soon as any request needs penalties
    prompt_tokens = [list(g["prompt_token_ids"]) for g in seq_groups]
    output_tokens = [list(g["output_token_ids"]) for g in seq_groups]
    if not do_penalties:
        return None
    return {
        "repetition_penalties": torch.tensor(repetition_penalties),
        "prompt_tokens": pad_tokens(prompt_tokens, vocab_size),
        "output_tokens": pad_tokens(output_tokens, vocab_size),
    }


def pad_tokens(rows, pad_id):
    width = max(len(r) for r in rows)
    return torch.tensor([r + [pad_id] * (width - len(r)) for r in rows], dtype=torch.long)


def get_token_bin_counts_and_mask(tokens, vocab_size, num_seqs):
    bin_counts = torch.zeros(num_seqs, vocab_size + 1, dtype=torch.long)
    bin_counts.scatter_add_(1, tokens, torch.ones_like(tokens))
    bin_counts = bin_counts[:, :vocab_size]
    return bin_counts, bin_counts > 0


def apply_penalties(logits, prompt_tokens, output_tokens, repetition_penalties):
    num_seqs, vocab_size = logits.shape
    _, prompt_mask = get_token_bin_counts_and_mask(prompt_tokens, vocab_size, num_seqs)
    _, output_mask = get_token_bin_counts_and_mask(output_tokens, vocab_size, num_seqs)
    penalties = repetition_penalties[:, None].repeat(1, vocab_size)
    penalties[~(prompt_mask | output_mask)] = 1.0
    return torch.where(logits > 0, logits / penalties, logits * penalties)


def sample_greedy(logits, seq_groups):
    tensors = build_sampling_tensors(seq_groups, logits.size(1))
    if tensors is not None:
        logits = apply_penalties(logits, tensors["prompt_tokens"], tensors["output_tokens"],
                                 tensors["repetition_penalties"])
    return logits.argmax(dim=-1), logits


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_size = 20
    seq_groups = [
        {"params": {"temperature": 0.0, "top_k": 1}, "prompt_token_ids": [1, 2, 3], "output_token_ids": [4]},
        {"params": {"temperature": 0.0, "repetition_penalty": 2.0},
         "prompt_token_ids": [7, 8, 9, 7], "output_token_ids": [8, 8]},
    ]
    logits = torch.randn(2, vocab_size)
    logits[1, 8] = 3.0   # the penalised request prefers repeating token 8
    logits[1, 15] = 2.0
    next_tokens, processed = sample_greedy(logits.clone(), seq_groups)
    ref = logits.clone()
    for i, g in enumerate(seq_groups):
        rp = g["params"].get("repetition_penalty", 1.0)
        for t in set(g["prompt_token_ids"]) | set(g["output_token_ids"]):
            ref[i, t] = ref[i, t] / rp if ref[i, t] > 0 else ref[i, t] * rp
    assert torch.allclose(processed, ref), (processed, ref)
    assert next_tokens.tolist() == ref.argmax(-1).tolist()
    assert next_tokens[1].item() == 15
    print("ok")
