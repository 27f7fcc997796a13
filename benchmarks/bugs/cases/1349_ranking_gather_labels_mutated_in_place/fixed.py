import torch
import torch.nn as nn
import torch.nn.functional as F

IGNORE_INDEX = -100


class RankingLoss(nn.Module):
    """Ranks several candidate responses per prompt by their length-normalized log-likelihood."""

    def __init__(self, length_penalty=1.0, sft_weight=1.0):
        super().__init__()
        self.length_penalty = length_penalty
        self.sft_weight = sft_weight

    def gather_logits_labels(self, log_probs, labels):
        """Per-token log-probability of the label.

        Args:
            log_probs (`torch.FloatTensor` of shape `(num_candidates, seq_len, vocab_size)`):
                Log-softmax of the next-token logits, already aligned with `labels`.
            labels (`torch.LongTensor` of shape `(num_candidates, seq_len)`):
                Target ids, `-100` on prompt and padding positions.

        Returns:
            `torch.FloatTensor` of shape `(num_candidates, seq_len)`, zero where the label is ignored.
        """
        mask = (labels != IGNORE_INDEX).float()
        safe_labels = labels.masked_fill(labels == IGNORE_INDEX, 0)
        token_logps = torch.gather(log_probs, dim=-1, index=safe_labels.unsqueeze(-1)).squeeze(-1)
        return token_logps * mask

    def get_score(self, token_logps, labels):
        """Length-normalized sequence score.

        Args:
            token_logps (`torch.FloatTensor` of shape `(num_candidates, seq_len)`)
            labels (`torch.LongTensor` of shape `(num_candidates, seq_len)`)

        Returns:
            `torch.FloatTensor` of shape `(num_candidates,)`.
        """
        length = (labels != IGNORE_INDEX).float().sum(-1)
        return token_logps.sum(-1) / length.pow(self.length_penalty)

    def forward(self, logits, labels, rewards):
        log_probs = F.log_softmax(logits[:, :-1], dim=-1)
        labels = labels[:, 1:]
        token_logps = self.gather_logits_labels(log_probs, labels)
        scores = self.get_score(token_logps, labels)
        diff = scores.unsqueeze(0) - scores.unsqueeze(-1)  # [i, j] = s_j - s_i
        worse = (rewards.unsqueeze(0) - rewards.unsqueeze(-1)) < 0  # r_j < r_i
        rank_loss = diff[worse].sum()
        best = rewards.argmax()
        sft_loss = -token_logps[best].sum() / (labels[best] != IGNORE_INDEX).sum()
        return rank_loss + self.sft_weight * sft_loss, scores


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, seq_len = 50, 12
    prompt_len = 4
    response_lens = [7, 3, 5]
    input_ids = torch.randint(1, vocab, (3, seq_len))
    labels = input_ids.clone()
    labels[:, :prompt_len] = IGNORE_INDEX
    for i, n in enumerate(response_lens):
        labels[i, prompt_len + n :] = IGNORE_INDEX
    logits = torch.randn(3, seq_len, vocab)
    rewards = torch.tensor([0.9, 0.1, 0.5])

    loss_fn = RankingLoss()
    original = labels.clone()
    loss, scores = loss_fn(logits, labels, rewards)
    assert torch.equal(labels, original)

    log_probs = torch.log_softmax(logits, dim=-1)
    for i, n in enumerate(response_lens):
        total, count = 0.0, 0
        for t in range(1, seq_len):
            if original[i, t] != IGNORE_INDEX:
                total += log_probs[i, t - 1, original[i, t]].item()
                count += 1
        assert count == n
        assert abs(scores[i].item() - total / count) < 1e-4
    print("ok")
