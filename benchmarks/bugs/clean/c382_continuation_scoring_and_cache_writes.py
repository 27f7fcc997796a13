import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class TinyLM(nn.Module):
    def __init__(self, vocab: int = 40, dim: int = 16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids: Int[Tensor, "seq"]) -> Float[Tensor, "seq vocab"]:
        return self.head(self.rnn(self.emb(ids)[None])[0][0])


def continuation_logprobs(model: TinyLM, prompt: Int[Tensor, "p"], cont: Int[Tensor, "c"]) -> Float[Tensor, "c"]:
    ids = torch.cat([prompt, cont])
    start = prompt.numel() - 1  # the last prompt position predicts the first continuation token
    logp = model(ids)[start:-1].log_softmax(dim=-1)
    return logp.gather(-1, ids[start + 1:].unsqueeze(-1)).squeeze(-1)


def write_cache(cache: Float[Tensor, "batch slots hidden"], pos: Int[Tensor, "batch new"],
                new: Float[Tensor, "batch new hidden"]) -> Float[Tensor, "batch slots hidden"]:
    return cache.scatter(1, pos.unsqueeze(-1).expand(-1, -1, new.size(-1)), new)


def gold_probs(dist: Float[Tensor, "n classes"], gold: Int[Tensor, "n"]) -> Float[Tensor, "n"]:
    return dist.gather(1, gold.unsqueeze(1)).squeeze(1)  # stays 1-D for n == 1


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM()
    prompt, cont = torch.tensor([3, 17, 8, 25]), torch.tensor([4, 9, 30])
    with torch.no_grad():
        lp = continuation_logprobs(model, prompt, cont)
        for k in range(3):
            ctx = torch.cat([prompt, cont[:k]])
            assert abs(lp[k].item() - model(ctx).log_softmax(-1)[-1, cont[k]].item()) < 1e-5
    cache = torch.zeros(2, 6, 5)
    pos, new = torch.tensor([[1, 4], [0, 2]]), torch.randn(2, 2, 5)
    out = write_cache(cache, pos, new)
    for b in range(2):
        for j in range(2):
            assert torch.equal(out[b, pos[b, j]], new[b, j])
    assert out.ne(0).sum() == 20
    dist = torch.softmax(torch.randn(1, 7), dim=-1)
    g = gold_probs(dist, torch.tensor([5]))
    assert g.shape == (1,) and g[0] == dist[0, 5]
    print("ok")
