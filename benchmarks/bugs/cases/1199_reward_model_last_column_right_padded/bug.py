import torch
import torch.nn as nn


class RewardModel(nn.Module):
    """Scalar reward head on top of a (toy) causal backbone.

    Args:
        vocab_size: size of the token vocabulary.
        hidden_size: width of the hidden states.
    """

    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.body = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.value_head = nn.Linear(hidden_size, 1)

    def forward(self, sequences, attention_mask):
        """
        Args:
            sequences: (batch_size, seq_len) token ids, right padded.
            attention_mask: (batch_size, seq_len), 1 for real tokens.
        Returns:
            (batch_size,) reward of each sequence, read at its final token.
        """
        last_hidden_states, _ = self.body(self.embed(sequences))
        values = self.value_head(last_hidden_states).squeeze(-1)  # (batch_size, seq_len)
        values = values * attention_mask
        return values[:, -1]


def pairwise_loss(model, chosen, chosen_mask, rejected, rejected_mask):
    r_c = model(chosen, chosen_mask)
    r_r = model(rejected, rejected_mask)
    return -torch.nn.functional.logsigmoid(r_c - r_r).mean(), r_c, r_r


def pad_right(seqs, pad_id=0):
    L = max(len(s) for s in seqs)
    ids = torch.tensor([s + [pad_id] * (L - len(s)) for s in seqs])
    return ids, (ids != pad_id).long()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = RewardModel(vocab_size=40, hidden_size=16)
    chosen, chosen_mask = pad_right([[3, 8, 9, 12, 2], [5, 6, 2]])
    rejected, rejected_mask = pad_right([[3, 8, 2], [5, 6, 7, 7, 7, 2]])
    loss, r_c, r_r = pairwise_loss(model, chosen, chosen_mask, rejected, rejected_mask)
    print("chosen rewards", r_c.tolist())
    print("rejected rewards", r_r.tolist())
    print("loss", loss.item())
