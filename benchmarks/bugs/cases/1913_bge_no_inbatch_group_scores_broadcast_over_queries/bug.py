import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class BiEncoderModel(nn.Module):
    def __init__(self, vocab_size: int, dim: int, temperature: float = 0.05, use_inbatch_neg: bool = True):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.proj = nn.Linear(dim, dim)
        self.temperature = temperature
        self.use_inbatch_neg = use_inbatch_neg
        self.cross_entropy = nn.CrossEntropyLoss(reduction="mean")

    def encode(self, input_ids: Int[Tensor, "n l"]) -> Float[Tensor, "n d"]:
        mask: Float[Tensor, "n l 1"] = (input_ids != 0).unsqueeze(-1).float()
        hidden: Float[Tensor, "n l d"] = self.embed(input_ids)
        pooled: Float[Tensor, "n d"] = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
        return F.normalize(self.proj(pooled), dim=-1)

    def compute_similarity(self, q_reps: Tensor, p_reps: Tensor) -> Tensor:
        if len(p_reps.size()) == 2:
            return torch.matmul(q_reps, p_reps.transpose(0, 1))
        return torch.matmul(q_reps, p_reps.transpose(-2, -1))

    def compute_loss(self, scores: Float[Tensor, "b c"], target: Int[Tensor, "b"]) -> Float[Tensor, ""]:
        return self.cross_entropy(scores, target)

    def forward(self, query: Int[Tensor, "b lq"], passage: Int[Tensor, "bg lp"], group_size: int):
        q_reps: Float[Tensor, "b d"] = self.encode(query)
        p_reps: Float[Tensor, "bg d"] = self.encode(passage)
        if self.use_inbatch_neg:
            scores: Float[Tensor, "b bg"] = self.compute_similarity(q_reps, p_reps) / self.temperature
            scores = scores.view(q_reps.size(0), -1)
            target: Int[Tensor, "b"] = torch.arange(scores.size(0), dtype=torch.long)
            target = target * (p_reps.size(0) // q_reps.size(0))
        else:
            grouped: Float[Tensor, "b g d"] = p_reps.view(q_reps.size(0), group_size, -1)
            scores: Float[Tensor, "b g"] = self.compute_similarity(q_reps, grouped) / self.temperature
            scores = scores.view(q_reps.size(0), -1)
            # the positive passage is the first one of every group
            target: Int[Tensor, "b"] = torch.zeros(scores.size(0), dtype=torch.long)
        loss = self.compute_loss(scores, target)
        return loss, scores


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BiEncoderModel(vocab_size=50, dim=16, use_inbatch_neg=False)
    group_size = 3
    query = torch.randint(1, 50, (4, 6))
    passage = torch.randint(1, 50, (4 * group_size, 9))
    passage[::group_size, :6] = query  # each query's positive shares its tokens
    with torch.no_grad():
        loss, scores = model(query, passage, group_size)
        q = model.encode(query)
        p = model.encode(passage).view(4, group_size, -1)
        per_query = [F.cross_entropy((p[i] @ q[i]).unsqueeze(0) / model.temperature, torch.tensor([0])) for i in range(4)]
    print("scores shape:", tuple(scores.shape), "(expected (4, 3): one row of group scores per query)")
    print("loss:", round(loss.item(), 4), "per-query group loss:", round(torch.stack(per_query).mean().item(), 4))
