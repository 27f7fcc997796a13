import torch
from jaxtyping import Float, Int


def pool_subwords(
    hidden: Float[torch.Tensor, "batch tokens dim"],
    word_ids: Int[torch.Tensor, "batch tokens"],
    num_words: int,
) -> Float[torch.Tensor, "batch words dim"]:
    """Average the sub-word vectors of every word (word_ids maps token -> word)."""
    b, t, d = hidden.shape
    index = word_ids.unsqueeze(-1).expand(b, t, d)
    summed = hidden.new_zeros(b, num_words, d).scatter_add_(1, index, hidden)
    counts = hidden.new_zeros(b, num_words).scatter_add_(1, word_ids, torch.ones_like(word_ids, dtype=hidden.dtype))
    return summed / counts.clamp(min=1).unsqueeze(-1)


def word_ids_from_offsets(pieces_per_word, max_tokens):
    """Collate helper: [[2, 1, 3], [1, 1]] -> padded token->word maps; pad tokens go to an extra slot."""
    rows = []
    num_words = max(len(p) for p in pieces_per_word)
    for pieces in pieces_per_word:
        ids = [w for w, n in enumerate(pieces) for _ in range(n)]
        ids += [num_words] * (max_tokens - len(ids))
        rows.append(ids)
    return torch.tensor(rows), num_words + 1


if __name__ == "__main__":
    torch.manual_seed(0)
    pieces = [[2, 1, 3], [1, 3]]
    word_ids, n_slots = word_ids_from_offsets(pieces, max_tokens=7)
    hidden = torch.randn(2, 7, 5)
    words = pool_subwords(hidden, word_ids, n_slots)[:, :-1]
    for b, p in enumerate(pieces):
        start = 0
        for w, n in enumerate(p):
            ref = [sum(hidden[b, start + k, j].item() for k in range(n)) / n for j in range(5)]
            assert torch.allclose(words[b, w], torch.tensor(ref), atol=1e-6)
            start += n
    print("ok")
