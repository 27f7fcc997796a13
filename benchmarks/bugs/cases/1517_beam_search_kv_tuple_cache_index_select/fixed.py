from typing import Dict, Tuple

import torch
from jaxtyping import Float, Int
from torch import Tensor, nn

KVCache = Tuple[Float[Tensor, "bn heads t dk"], Float[Tensor, "bn heads t dk"]]


class ToyDecoder(nn.Module):
    def __init__(self, vocab: int = 11, dim: int = 8, heads: int = 2, layers: int = 2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.kv = nn.ModuleList([nn.Linear(dim, 2 * dim) for _ in range(layers)])
        self.out = nn.Linear(dim, vocab)
        self.heads, self.dk = heads, dim // heads

    def forward_one_step(
        self, tokens: Int[Tensor, " bn"], cache: Dict[int, KVCache]
    ) -> Tuple[Float[Tensor, "bn vocab"], Dict[int, KVCache]]:
        x = self.embed(tokens)
        new_cache = {}
        for i, proj in enumerate(self.kv):
            k, v = proj(x).view(-1, 2, self.heads, 1, self.dk).unbind(1)
            if i in cache:
                k = torch.cat([cache[i][0], k], dim=2)
                v = torch.cat([cache[i][1], v], dim=2)
            new_cache[i] = (k, v)
            x = x + v.mean(dim=2).flatten(1)
        return self.out(x).log_softmax(-1), new_cache


def attention_beam_search(
    model: ToyDecoder, batch_size: int, beam_size: int, sos: int, steps: int
) -> Tuple[Int[Tensor, "b n steps"], Float[Tensor, "b n"]]:
    running = torch.full((batch_size * beam_size,), sos, dtype=torch.long)
    scores = torch.tensor([0.0] + [-float("inf")] * (beam_size - 1)).repeat(batch_size).view(-1, 1)
    hyps = running.view(-1, 1)
    cache = {"self_att_cache": {}}
    for _ in range(steps):
        logp, cache["self_att_cache"] = model.forward_one_step(running, cache["self_att_cache"])
        top_k_logp, top_k_index = logp.topk(beam_size)
        scores = (scores + top_k_logp).view(batch_size, beam_size * beam_size)
        scores, offset_k_index = scores.topk(k=beam_size)
        scores = scores.view(-1, 1)
        cache_index = (offset_k_index // beam_size).view(-1)
        base_cache_index = (torch.arange(batch_size).view(-1, 1).repeat([1, beam_size]) * beam_size).view(-1)
        cache_index = base_cache_index + cache_index
        cache["self_att_cache"] = {
            i_layer: (
                torch.index_select(value[0], dim=0, index=cache_index),
                torch.index_select(value[1], dim=0, index=cache_index),
            )
            for (i_layer, value) in cache["self_att_cache"].items()
        }
        base_k_index = torch.arange(batch_size).view(-1, 1).repeat([1, beam_size]) * beam_size * beam_size
        best_k_index = (base_k_index + offset_k_index).view(-1)
        running = torch.index_select(top_k_index.view(-1), dim=0, index=best_k_index)
        hyps = torch.cat([torch.index_select(hyps, dim=0, index=cache_index), running.view(-1, 1)], dim=1)
    return hyps.view(batch_size, beam_size, -1), scores.view(batch_size, beam_size)


def rescore(model: ToyDecoder, seq) -> float:
    # re-run one hypothesis on its own, one token at a time, with its own fresh cache
    cache, total = {}, 0.0
    for t in range(len(seq) - 1):
        logp, cache = model.forward_one_step(torch.tensor([seq[t]]), cache)
        total += float(logp[0, seq[t + 1]])
    return total


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ToyDecoder()
    with torch.no_grad():
        hyps, scores = attention_beam_search(model, batch_size=2, beam_size=3, sos=1, steps=4)
        for b in range(2):
            for n in range(3):
                ref = rescore(model, hyps[b, n].tolist())
                assert abs(ref - float(scores[b, n])) < 1e-4, (b, n, ref, float(scores[b, n]))
    print("ok")
