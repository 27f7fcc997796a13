import torch
import torch.nn as nn


class WordPooler(nn.Module):
    """Averages subword hidden states into one vector per word for word-level tagging."""

    def __init__(self, hidden_size, num_tags):
        super().__init__()
        self.classifier = nn.Linear(hidden_size, num_tags)

    def forward(self, hidden_states, word_ids, num_words):
        # hidden_states: [B, T, H]; word_ids: [B, T] (word of each subword, -1 for special tokens/padding)
        batch_size, _, hidden_size = hidden_states.shape
        valid = word_ids >= 0                                              # [B, T]
        safe_ids = word_ids.clamp(min=0)                                   # [B, T]
        index = safe_ids.unsqueeze(-1).expand(-1, -1, hidden_size)         # [B, T, H]
        summed = hidden_states.new_zeros(batch_size, num_words, hidden_size)
        summed.scatter_add_(1, index, hidden_states * valid.unsqueeze(-1))  # [B, W, H]
        counts = hidden_states.new_zeros(batch_size, num_words)
        counts.scatter_add_(1, safe_ids, valid.to(hidden_states.dtype))    # [B, W]
        word_states = summed / counts.clamp(min=1).unsqueeze(-1)           # [B, W, H]
        return self.classifier(word_states), counts


def tag_loss(logits, tags, counts):
    # logits: [B, W, C]; tags: [B, W] with -100 for missing words; counts: [B, W]
    log_probs = logits.log_softmax(dim=-1)
    mask = (tags != -100) & (counts > 0)
    picked = log_probs.gather(-1, tags.clamp(min=0).unsqueeze(-1)).squeeze(-1)  # [B, W]
    return -(picked * mask).sum() / mask.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    pooler = WordPooler(hidden_size=6, num_tags=4)
    hidden_states = torch.randn(2, 7, 6)
    word_ids = torch.tensor([[-1, 0, 0, 1, 2, 2, -1], [-1, 0, 1, 1, 1, -1, -1]])
    tags = torch.tensor([[1, 3, 0], [2, 0, -100]])
    logits, counts = pooler(hidden_states, word_ids, num_words=3)
    loss = tag_loss(logits, tags, counts)

    total, n = 0.0, 0
    for b in range(2):
        for w in range(3):
            rows = [t for t in range(7) if word_ids[b, t].item() == w]
            assert counts[b, w].item() == len(rows)
            if not rows:
                continue
            mean = sum(hidden_states[b, t] for t in rows) / len(rows)
            expected = pooler.classifier(mean)
            assert torch.allclose(logits[b, w], expected, atol=1e-5)
            if tags[b, w].item() != -100:
                total += -expected.log_softmax(-1)[tags[b, w]].item()
                n += 1
    assert abs(loss.item() - total / n) < 1e-5
    print("ok")
