import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor


def confidence_scores(
    logits: Float[Tensor, "b n v"], sampled_ids: Int[Tensor, "b n"]
) -> Float[Tensor, "b n"]:
    probs = logits.softmax(dim=-1)
    picked = probs.gather(2, sampled_ids.unsqueeze(-1)).squeeze(-1)
    return 1.0 - picked  # high score = low confidence


def select_tokens_to_remask(
    scores: Float[Tensor, "b n"],
    seq_mask: Bool[Tensor, "b n"],
    mask_num_tokens: Int[Tensor, "b"],
) -> Bool[Tensor, "b n"]:
    mask_value = -torch.finfo(scores.dtype).max
    scores = scores.masked_fill(~seq_mask, mask_value)
    scores_sorted = scores.argsort(dim=-1, descending=True)
    mask = scores_sorted < mask_num_tokens.unsqueeze(-1)
    return mask & seq_mask


class AcousticTokenHead(nn.Module):
    def __init__(self, dim: int, codebook_size: int):
        super().__init__()
        self.to_logits = nn.Linear(dim, codebook_size)

    def forward(self, h: Float[Tensor, "b n d"]) -> Float[Tensor, "b n v"]:
        return self.to_logits(h)


def maskgit_step(
    head: AcousticTokenHead,
    h: Float[Tensor, "b n d"],
    seq_mask: Bool[Tensor, "b n"],
    mask_ratio: float,
):
    logits = head(h)
    sampled_ids = logits.argmax(dim=-1)
    scores = confidence_scores(logits, sampled_ids)
    mask_num_tokens = (seq_mask.sum(dim=-1).float() * mask_ratio).long()
    remask = select_tokens_to_remask(scores, seq_mask, mask_num_tokens)
    return sampled_ids, scores, remask, mask_num_tokens


if __name__ == "__main__":
    torch.manual_seed(0)
    head = AcousticTokenHead(dim=16, codebook_size=32)
    h = torch.randn(2, 10, 16)
    lengths = torch.tensor([10, 7])
    seq_mask = torch.arange(10)[None, :] < lengths[:, None]
    with torch.no_grad():
        _, scores, remask, k = maskgit_step(head, h, seq_mask, mask_ratio=0.5)
    for b in range(2):
        valid = [i for i in range(10) if seq_mask[b, i]]
        least_confident = sorted(valid, key=lambda i: -scores[b, i].item())[: k[b].item()]
        print(f"row {b}: re-masked {remask[b].nonzero().view(-1).tolist()}"
              f"  least confident {sorted(least_confident)}")
