import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def log_softmax(x: Float[Tensor, "... vocab"], dim: int = -1) -> Float[Tensor, "... vocab"]:
    x_max = torch.max(x, dim=dim, keepdim=True)[0]
    return x - x_max - torch.log(torch.sum(torch.exp(x - x_max), dim=dim, keepdim=True))


def cross_entropy(inputs: Float[Tensor, "... vocab"], targets: Int[Tensor, "..."]) -> Float[Tensor, ""]:
    negative_log_probs = -log_softmax(inputs)
    return torch.mean(torch.gather(negative_log_probs, 1, targets.unsqueeze(-1)))


class CharLM(nn.Module):
    def __init__(self, vocab_size: int, context_length: int, d_model: int):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(context_length, d_model)
        self.mix = nn.GRU(d_model, d_model, batch_first=True)
        self.head = nn.Linear(d_model, vocab_size)

    def forward(self, ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq vocab"]:
        h = self.tok(ids) + self.pos(torch.arange(ids.size(1)))
        h, _ = self.mix(h)
        return self.head(h)


def get_batch(corpus: Int[Tensor, "n"], batch_size: int, context_length: int):
    starts = torch.randint(0, corpus.numel() - context_length - 1, (batch_size,))
    x = torch.stack([corpus[s : s + context_length] for s in starts])
    y = torch.stack([corpus[s + 1 : s + context_length + 1] for s in starts])
    return x, y


if __name__ == "__main__":
    torch.manual_seed(0)
    config = dict(vocab_size=28, context_length=64, d_model=32)
    model = CharLM(**config)
    corpus = torch.randint(0, config["vocab_size"], (5000,))
    x, y = get_batch(corpus, batch_size=8, context_length=config["context_length"])
    logits = model(x)
    loss = cross_entropy(logits, y)
    reference = nn.functional.cross_entropy(logits.reshape(-1, config["vocab_size"]), y.reshape(-1))
    print("train loss:", loss.item(), "F.cross_entropy:", reference.item())
