import torch
from jaxtyping import Float, Int
from torch import Tensor


class CBOWNegativeSampling:
    def __init__(self, vocab_size: int, vector_size: int, negative: int = 3, alpha: float = 0.025, seed: int = 1):
        gen = torch.Generator().manual_seed(seed)
        self.syn0: Float[Tensor, "vocab dim"] = (torch.rand(vocab_size, vector_size, generator=gen) - 0.5) / vector_size
        self.syn1neg: Float[Tensor, "vocab dim"] = torch.zeros(vocab_size, vector_size)
        self.negative, self.alpha, self.gen = negative, alpha, gen

    def train_cbow_pair(self, word: int, context: Int[Tensor, "window"]) -> Float[Tensor, "dim"]:
        l1: Float[Tensor, "dim"] = self.syn0[context].sum(dim=0)
        l1 = l1 / len(context)
        targets: Int[Tensor, "k"] = torch.cat([
            torch.tensor([word]),
            torch.randint(0, self.syn0.size(0), (self.negative,), generator=self.gen),
        ])
        labels: Float[Tensor, "k"] = torch.zeros(len(targets))
        labels[0] = 1.0
        l2b: Float[Tensor, "k dim"] = self.syn1neg[targets]
        fb = torch.sigmoid(l2b @ l1)
        gb = (labels - fb) * self.alpha
        self.syn1neg.index_add_(0, targets, torch.outer(gb, l1))
        neu1e: Float[Tensor, "dim"] = gb @ l2b
        self.syn0.index_add_(0, context, neu1e.expand(len(context), -1))
        return neu1e


def train_sentence(model: CBOWNegativeSampling, sentence: Int[Tensor, "n"], window: int = 2) -> None:
    for pos in range(len(sentence)):
        start, end = max(0, pos - window), min(len(sentence), pos + window + 1)
        context = torch.cat([sentence[start:pos], sentence[pos + 1:end]])
        model.train_cbow_pair(int(sentence[pos]), context)


if __name__ == "__main__":
    vocab = {"the": 0, "dog": 1, "and": 2, "cat": 3, "sat": 4, "mat": 5}
    model = CBOWNegativeSampling(len(vocab), vector_size=4)
    model.syn1neg.normal_(0, 0.5, generator=torch.Generator().manual_seed(2))
    context = torch.tensor([vocab["the"], vocab["dog"], vocab["the"], vocab["cat"]])
    before = model.syn0.clone()
    neu1e = model.train_cbow_pair(vocab["and"], context)
    print("update of 'the' (appears twice in the window):", [round(v, 5) for v in (model.syn0[0] - before[0]).tolist()])
    print("update of 'dog' (appears once):", [round(v, 5) for v in (model.syn0[1] - before[1]).tolist()])
    expected = before.clone()
    for word_id in context.tolist():
        expected[word_id] += neu1e
    assert torch.allclose(model.syn0, expected, atol=1e-7)
    train_sentence(model, torch.tensor([0, 1, 2, 0, 3, 4, 0, 5]))
    print("ok")
