import torch
from jaxtyping import Float, Int


def count_transitions(
    tokens: Int[torch.Tensor, "seq"], vocab_size: int
) -> Float[torch.Tensor, "vocab vocab"]:
    counts = torch.zeros(vocab_size, vocab_size)
    ones = torch.ones(tokens.numel() - 1)
    counts.index_put_((tokens[:-1], tokens[1:]), ones, accumulate=True)
    return counts


def fit_bigram(
    corpus: list[Int[torch.Tensor, "seq"]], vocab_size: int, alpha: float = 0.1
) -> Float[torch.Tensor, "vocab vocab"]:
    total = torch.zeros(vocab_size, vocab_size)
    for seq in corpus:
        total += count_transitions(seq, vocab_size)
    smoothed = total + alpha
    return smoothed / smoothed.sum(dim=1, keepdim=True)


def log_likelihood(
    probs: Float[torch.Tensor, "vocab vocab"], seq: Int[torch.Tensor, "seq"]
) -> float:
    return probs[seq[:-1], seq[1:]].log().sum().item()


if __name__ == "__main__":
    text = "abracadabra banana bandana cabana"
    vocab = sorted(set(text))
    stoi = {ch: i for i, ch in enumerate(vocab)}
    corpus = [torch.tensor([stoi[c] for c in word]) for word in text.split()]
    probs = fit_bigram(corpus, len(vocab))
    V = len(vocab)
    ref = [[0.0] * V for _ in range(V)]
    for s in corpus:
        t = s.tolist()
        for a, b in zip(t[:-1], t[1:]):
            ref[a][b] += 1.0
    for a in range(V):
        row = sum(ref[a]) + 0.1 * V
        for b in range(V):
            assert abs(probs[a, b].item() - (ref[a][b] + 0.1) / row) < 1e-6
    print("ok")
