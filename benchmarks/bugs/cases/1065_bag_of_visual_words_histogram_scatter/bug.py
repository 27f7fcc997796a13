import torch
from jaxtyping import Float, Int


class VisualVocabulary:
    def __init__(self, codebook: Float[torch.Tensor, "K D"]):
        self.codebook = codebook

    def assign(self, desc: Float[torch.Tensor, "B N D"]) -> Int[torch.Tensor, "B N"]:
        d = torch.cdist(desc, self.codebook.unsqueeze(0).expand(desc.size(0), -1, -1))
        return d.argmin(dim=-1)

    def histogram(self, words: Int[torch.Tensor, "B N"]) -> Float[torch.Tensor, "B K"]:
        K = self.codebook.size(0)
        hist = torch.zeros(words.size(0), K)
        hist.scatter_(1, words, torch.ones_like(words, dtype=hist.dtype))
        return hist / words.size(1)


def tfidf(hist: Float[torch.Tensor, "B K"], df: Float[torch.Tensor, "K"]) -> Float[torch.Tensor, "B K"]:
    return hist * torch.log((1.0 + hist.size(0)) / (1.0 + df))


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = VisualVocabulary(torch.randn(6, 8))
    desc = torch.randn(3, 40, 8)
    words = vocab.assign(desc)
    hist = vocab.histogram(words)
    print("row sums", hist.sum(1).tolist())
    print("tf-idf", tfidf(hist, (hist > 0).float().sum(0))[0].tolist())
