from dataclasses import dataclass
from typing import List

import torch


@dataclass
class SamplerConfig:
    vocab_size: int = 50
    repetition_penalty: float = 1.3


def pad_prompt_tokens(prompts: List[List[int]], pad_id: int) -> torch.Tensor:
    """Right-pad variable-length prompts into one int64 tensor.

    Args:
        prompts: ``num_seqs`` lists of token ids.
        pad_id: filler id; ``vocab_size`` is used so it never collides with a real token.

    Returns:
        LongTensor of shape ``(num_seqs, max_prompt_len)``.
    """
    max_len = max(len(p) for p in prompts)
    return torch.tensor([p + [pad_id] * (max_len - len(p)) for p in prompts], dtype=torch.long)


def get_token_bin_counts_and_mask(tokens: torch.Tensor, vocab_size: int, num_seqs: int):
    """Count how often each vocabulary id occurs in every row.

    Args:
        tokens: ``(num_seqs, max_len)`` token ids, padded.
        vocab_size: size of the LM head.

    Returns:
        counts ``(num_seqs, vocab_size)`` and the boolean mask ``counts > 0``.
    """
    # one extra column absorbs the padding id (== vocab_size), dropped afterwards
    bin_counts = torch.zeros((num_seqs, vocab_size + 1), dtype=torch.long)
    bin_counts.scatter_add_(1, tokens, torch.ones_like(tokens))
    bin_counts = bin_counts[:, :vocab_size]
    return bin_counts, bin_counts > 0


def apply_repetition_penalty(logits: torch.Tensor, prompts: List[List[int]], cfg: SamplerConfig) -> torch.Tensor:
    """HF-style repetition penalty over the prompt tokens.

    Args:
        logits: ``(num_seqs, vocab_size)`` next-token logits.
    """
    tokens = pad_prompt_tokens(prompts, pad_id=cfg.vocab_size)
    _, seen = get_token_bin_counts_and_mask(tokens, cfg.vocab_size, logits.shape[0])
    penalised = torch.where(logits > 0, logits / cfg.repetition_penalty, logits * cfg.repetition_penalty)
    return torch.where(seen, penalised, logits)


if __name__ == "__main__":
    cfg = SamplerConfig()
    torch.manual_seed(0)
    logits = torch.randn(3, cfg.vocab_size)
    prompts = [[3, 7, 7, 12], [0, 49], [5, 5, 5, 5, 9, 1]]
    out = apply_repetition_penalty(logits, prompts, cfg)
    ref = logits.clone()
    for r, p in enumerate(prompts):
        for t in set(p):
            v = float(logits[r, t])
            ref[r, t] = v / cfg.repetition_penalty if v > 0 else v * cfg.repetition_penalty
    assert torch.allclose(out, ref)
    counts, _ = get_token_bin_counts_and_mask(pad_prompt_tokens(prompts, cfg.vocab_size), cfg.vocab_size, 3)
    for r, p in enumerate(prompts):
        for t in range(cfg.vocab_size):
            assert int(counts[r, t]) == p.count(t)
    print("ok")
