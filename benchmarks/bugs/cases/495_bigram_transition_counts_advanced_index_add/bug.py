import torch
from jaxtyping import Float, Int


def count_transitions(
    tokens: Int[torch.Tensor, "seq"], vocab_size: int
) -> Float[torch.Tensor, "vocab vocab"]:
    counts = torch.zeros(vocab_size, vocab_size)
    counts[tokens[:-1], tokens[1:]] += 1
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
    counted = sum(count_transitions(s, len(vocab)).sum().item() for s in corpus)
    print("transitions counted:", counted, "of", sum(len(s) - 1 for s in corpus))
    probs = fit_bigram(corpus, len(vocab))
    print("log-likelihood of 'banana':", log_likelihood(probs, corpus[1]))
