import torch
import torch.nn as nn


class EagleDraftHead(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.fuse = nn.Linear(2 * hidden_size, hidden_size)

    def select_last_accepted(self, hidden_states, num_accepted):
        """Pick the target-model feature of the last accepted token of each sequence.

        Args:
            hidden_states (`torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`):
                Features of the verified tokens.
            num_accepted (`torch.LongTensor` of shape `(batch_size,)`):
                Number of tokens accepted in this step (at least 1).

        Returns:
            `torch.FloatTensor` of shape `(batch_size, 1, hidden_size)`.
        """
        index = (num_accepted - 1).view(-1, 1, 1)
        return hidden_states.gather(1, index)

    def write_back(self, feature_cache, positions, features):
        """Store the new draft features at `positions` (`(batch_size,)`) of `feature_cache`
        (`(batch_size, max_len, hidden_size)`); `features` is `(batch_size, 1, hidden_size)`."""
        return feature_cache.scatter(1, positions.view(-1, 1, 1), features)

    def forward(self, hidden_states, num_accepted, next_tokens, feature_cache, positions):
        last = self.select_last_accepted(hidden_states, num_accepted)
        tok = self.embed(next_tokens).unsqueeze(1)
        fused = self.fuse(torch.cat([last.expand_as(tok), tok], dim=-1))
        return fused, self.write_back(feature_cache, positions, fused)


if __name__ == "__main__":
    torch.manual_seed(0)
    head = EagleDraftHead(vocab_size=50, hidden_size=8)
    hidden = torch.randn(3, 5, 8)
    num_accepted = torch.tensor([2, 5, 1])
    cache = torch.zeros(3, 6, 8)
    positions = torch.tensor([1, 4, 0])
    fused, new_cache = head(hidden, num_accepted, torch.tensor([3, 7, 11]), cache, positions)
    last = head.select_last_accepted(hidden, num_accepted)
    ref_last = torch.stack([hidden[b, num_accepted[b] - 1] for b in range(3)]).unsqueeze(1)
    print("selected feature shape:", tuple(last.shape), "expected:", tuple(ref_last.shape))
    print("max |fused difference| vs per-sequence loop:",
          (fused - head.fuse(torch.cat([ref_last, head.embed(torch.tensor([3, 7, 11])).unsqueeze(1)], -1))).abs().max().item())
    print("nonzero cache entries written:", int((new_cache != 0).sum()), "expected:", 3 * 8)
