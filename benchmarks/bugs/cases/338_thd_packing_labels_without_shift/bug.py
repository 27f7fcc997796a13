import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor

IGNORE_INDEX = -100


def pack_thd(
    samples: list[Int[Tensor, "seq"]], prompt_lens: list[int]
) -> tuple[Int[Tensor, "total"], Int[Tensor, "total"], Int[Tensor, "nseq_plus_1"]]:
    tokens = torch.cat(samples)
    labels = []
    for sample, n_prompt in zip(samples, prompt_lens):
        target = sample.clone()
        target[:n_prompt] = IGNORE_INDEX
        labels.append(target)
    lengths = torch.tensor([len(s) for s in samples])
    cu_seqlens = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)])
    return tokens, torch.cat(labels), cu_seqlens


class PackedCausalLM(nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.head = nn.Linear(hidden, vocab_size)

    def forward(
        self, tokens: Int[Tensor, "total"], cu_seqlens: Int[Tensor, "nseq_plus_1"]
    ) -> Float[Tensor, "total vocab"]:
        x = self.embed(tokens)
        csum = x.cumsum(dim=0)
        starts = cu_seqlens[:-1].repeat_interleave(cu_seqlens.diff())
        pos = torch.arange(tokens.numel()) - starts
        before = torch.where((starts > 0).unsqueeze(-1), csum[(starts - 1).clamp(min=0)], torch.zeros_like(x))
        return self.head(torch.tanh((csum - before) / (pos + 1).unsqueeze(-1)))


def sft_loss(logits: Float[Tensor, "total vocab"], labels: Int[Tensor, "total"]) -> Float[Tensor, ""]:
    return F.cross_entropy(logits, labels, ignore_index=IGNORE_INDEX)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 32
    samples = [torch.randint(0, vocab, (n,)) for n in (7, 5, 9)]
    prompt_lens = [3, 2, 4]
    tokens, labels, cu_seqlens = pack_thd(samples, prompt_lens)
    model = PackedCausalLM(vocab, 12)
    loss = sft_loss(model(tokens, cu_seqlens), labels)
    print("packed SFT loss:", loss.item())
