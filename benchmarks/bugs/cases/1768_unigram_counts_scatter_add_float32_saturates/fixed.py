import torch
from jaxtyping import Float, Int
from torch import Tensor


def token_counts(corpus_ids: Int[Tensor, "num_tokens"], vocab_size: int) -> Float[Tensor, "vocab"]:
    counts = torch.zeros(vocab_size, dtype=torch.float64)
    counts.scatter_add_(0, corpus_ids, torch.ones(corpus_ids.shape[0], dtype=torch.float64))
    return counts


def negative_sampling_table(counts: Float[Tensor, "vocab"], power: float = 0.75) -> Float[Tensor, "vocab"]:
    weights = counts.double() ** power
    return weights / weights.sum()


def build_corpus(spec: list[tuple[int, int]]) -> Int[Tensor, "num_tokens"]:
    ids = torch.tensor([tok for tok, _ in spec])
    reps = torch.tensor([n for _, n in spec])
    return ids.repeat_interleave(reps)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_size = 6
    # a stop-word-heavy corpus: token 0 ("the") occurs 17.3M times
    spec = [(0, 9_000_000), (3, 400_000), (0, 8_300_000), (1, 250_000), (5, 50_000), (2, 1_000)]
    corpus_ids = build_corpus(spec)
    counts = token_counts(corpus_ids, vocab_size)
    table = negative_sampling_table(counts)

    ref_counts = [0] * vocab_size
    for tok, n in spec:
        ref_counts[tok] += n
    ref_w = [c ** 0.75 for c in ref_counts]
    ref_table = [w / sum(ref_w) for w in ref_w]
    assert [int(c) for c in counts] == ref_counts, counts
    assert float((table - torch.tensor(ref_table, dtype=torch.float64)).abs().max()) < 1e-12
    print("ok")
