import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Bool, Float, Int
from torch import Tensor


class SpanExtractionHead(nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.qa_outputs = nn.Linear(2 * hidden, 2)

    def forward(self, input_ids: Int[Tensor, "batch seq"]) -> tuple[Float[Tensor, "batch seq"], Float[Tensor, "batch seq"]]:
        hidden, _ = self.encoder(self.embed(input_ids))
        start_logits, end_logits = self.qa_outputs(hidden).unbind(dim=-1)
        return start_logits, end_logits


def span_loss(
    start_logits: Float[Tensor, "batch seq"],
    end_logits: Float[Tensor, "batch seq"],
    start_positions: Int[Tensor, " batch"],
    end_positions: Int[Tensor, " batch"],
) -> Float[Tensor, ""]:
    start_lp = F.log_softmax(start_logits, dim=-1).gather(1, start_positions.unsqueeze(1)).squeeze(1)
    end_lp = F.log_softmax(end_logits, dim=-1).gather(1, end_positions.unsqueeze(1)).squeeze(1)
    return -(start_lp + end_lp).mean() / 2


def best_spans(
    start_logits: Float[Tensor, "batch seq"],
    end_logits: Float[Tensor, "batch seq"],
    context_mask: Bool[Tensor, "batch seq"],
    max_answer_len: int,
) -> tuple[Int[Tensor, " batch"], Int[Tensor, " batch"], Float[Tensor, " batch"]]:
    seq_len = start_logits.size(1)
    start_logits = start_logits.masked_fill(~context_mask, float("-inf"))
    end_logits = end_logits.masked_fill(~context_mask, float("-inf"))
    scores: Float[Tensor, "batch seq seq"] = start_logits.unsqueeze(2) + end_logits.unsqueeze(1)
    offsets = torch.arange(seq_len)
    width = offsets.unsqueeze(0) - offsets.unsqueeze(1)  # end - start
    allowed = (width >= 0) & (width < max_answer_len)
    scores = scores.masked_fill(~allowed, float("-inf"))
    flat_best = scores.flatten(1).argmax(dim=-1)
    start_idx = torch.div(flat_best, seq_len, rounding_mode="floor")
    end_idx = flat_best % seq_len
    best_score = start_logits.gather(1, start_idx.unsqueeze(1)).squeeze(1) + end_logits.gather(
        1, end_idx.unsqueeze(1)
    ).squeeze(1)
    return start_idx, end_idx, best_score


if __name__ == "__main__":
    import math

    torch.manual_seed(0)
    model = SpanExtractionHead(vocab_size=40, hidden=8)
    input_ids = torch.randint(0, 40, (3, 10))
    context_mask = torch.zeros(3, 10, dtype=torch.bool)
    context_mask[:, 3:9] = True  # question tokens first, then the context, then padding
    context_mask[2, 7:] = False
    start_positions = torch.tensor([3, 5, 4])
    end_positions = torch.tensor([4, 7, 6])
    with torch.no_grad():
        start_logits, end_logits = model(input_ids)
        loss = span_loss(start_logits, end_logits, start_positions, end_positions)
        s_idx, e_idx, score = best_spans(start_logits, end_logits, context_mask, max_answer_len=3)

    total = 0.0
    for b in range(3):
        for logits, pos in ((start_logits[b].tolist(), start_positions[b].item()), (end_logits[b].tolist(), end_positions[b].item())):
            m = max(logits)
            total += m + math.log(sum(math.exp(x - m) for x in logits)) - logits[pos]
        best = (-float("inf"), -1, -1)
        for i in range(10):
            for j in range(i, min(i + 3, 10)):
                if context_mask[b, i] and context_mask[b, j]:
                    value = start_logits[b, i].item() + end_logits[b, j].item()
                    if value > best[0]:
                        best = (value, i, j)
        assert (s_idx[b].item(), e_idx[b].item()) == (best[1], best[2])
        assert abs(score[b].item() - best[0]) < 1e-5
    assert abs(loss.item() - total / 6) < 1e-5
    print("ok")
