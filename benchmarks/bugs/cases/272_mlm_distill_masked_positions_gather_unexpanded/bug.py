import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyMLM(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.lm_head = nn.Linear(2 * hidden, vocab_size)

    def forward(self, input_ids):
        return self.lm_head(self.encoder(self.embed(input_ids))[0])  # [B, T, V]


def masked_positions(input_ids, mask_token_id, num_predictions):
    # indices of the [MASK] tokens of every sequence, padded with position 0: [B, M]
    positions = torch.zeros(input_ids.size(0), num_predictions, dtype=torch.long)
    weights = torch.zeros(input_ids.size(0), num_predictions)
    for b, row in enumerate(input_ids.tolist()):
        idx = [t for t, tok in enumerate(row) if tok == mask_token_id][:num_predictions]
        positions[b, : len(idx)] = torch.tensor(idx, dtype=torch.long)
        weights[b, : len(idx)] = 1.0
    return positions, weights


def distillation_loss(student_logits, teacher_logits, positions, weights, temperature=2.0):
    # student_logits, teacher_logits: [B, T, V]; positions, weights: [B, M]
    index = positions.unsqueeze(-1)                          # [B, M, 1]
    s = student_logits.gather(1, index) / temperature        # [B, M, V]
    t = teacher_logits.gather(1, index) / temperature        # [B, M, V]
    kl = (F.softmax(t, dim=-1) * (F.log_softmax(t, dim=-1) - F.log_softmax(s, dim=-1))).sum(-1)  # [B, M]
    return (kl * weights).sum() / weights.sum() * temperature ** 2


if __name__ == "__main__":
    torch.manual_seed(0)
    MASK = 1
    teacher, student = TinyMLM(30, 16), TinyMLM(30, 8)
    input_ids = torch.tensor([[5, 1, 7, 9, 1, 4], [8, 3, 1, 2, 6, 0]])
    positions, weights = masked_positions(input_ids, MASK, num_predictions=3)
    with torch.no_grad():
        s_logits, t_logits = student(input_ids), teacher(input_ids)
        loss = distillation_loss(s_logits, t_logits, positions, weights)
    print("distillation loss at the masked positions:", round(loss.item(), 5))
