import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor

IGNORE = -100


def tokenize_and_mask(
    caption_ids: list[list[int]], prompt_ids: list[int], max_text_len: int, pad_id: int = 0
) -> tuple[Int[Tensor, "batch seq"], Int[Tensor, "batch seq"]]:
    input_ids = torch.full((len(caption_ids), max_text_len), pad_id, dtype=torch.long)
    labels = torch.full((len(caption_ids), max_text_len), IGNORE, dtype=torch.long)
    for i, cap in enumerate(caption_ids):
        seq = (prompt_ids + cap)[:max_text_len]
        input_ids[i, : len(seq)] = torch.tensor(seq)
        labels[i, len(prompt_ids) : len(seq)] = torch.tensor(seq[len(prompt_ids) :])
    return input_ids, labels


def token_nll(logits: Float[Tensor, "batch seq vocab"], labels: Int[Tensor, "batch seq"]) -> Float[Tensor, ""]:
    """No-shift loss: labels[:, i] is the target predicted by logits[:, i]."""
    logp = F.log_softmax(logits.float(), dim=-1)
    mask = labels != IGNORE
    picked = logp.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)
    return -(picked * mask).sum() / mask.sum()


class CaptionDecoder(nn.Module):
    def __init__(self, vocab: int, dim: int, image_dim: int):
        super().__init__()
        self.img = nn.Linear(image_dim, dim)
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, image: Float[Tensor, "batch image_dim"], ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq vocab"]:
        h0 = torch.tanh(self.img(image)).unsqueeze(0)
        h, _ = self.rnn(self.emb(ids), h0)
        return self.out(h)


if __name__ == "__main__":
    torch.manual_seed(0)
    prompt = [5, 6, 7]
    captions = [torch.randint(10, 120, (n,)).tolist() for n in (6, 9, 4)]
    ids, labels = tokenize_and_mask(captions, prompt, max_text_len=14)
    model = CaptionDecoder(vocab=120, dim=48, image_dim=64)
    logits = model(torch.randn(3, 64), ids)
    loss = token_nll(logits, labels)
    logp = F.log_softmax(logits, dim=-1)
    seqs = [prompt + c for c in captions]
    ref = [-logp[b, t - 1, s[t]] for b, s in enumerate(seqs) for t in range(len(prompt), len(s))]
    print("caption loss:", loss.item(), "next-token reference:", torch.stack(ref).mean().item())
