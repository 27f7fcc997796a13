import torch
import torch.nn as nn


class RewardModel(nn.Module):
    def __init__(self, vocab_size, hidden_size, pad_token_id=0):
        super().__init__()
        self.pad_token_id = pad_token_id
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.encoder = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.v_head = nn.Linear(hidden_size, 1, bias=False)

    def forward(self, input_ids, attention_mask):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                Prompt and response tokens, right-padded with `pad_token_id`.
            attention_mask (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                1 for real tokens, 0 for padding.

        Returns:
            `torch.FloatTensor` of shape `(batch_size,)`: the reward read at the last real token of every sequence.
        """
        last_hidden_state, _ = self.encoder(self.embed_tokens(input_ids))
        values = self.v_head(last_hidden_state).squeeze(-1)
        end_index = attention_mask.sum(dim=1) - 1
        rewards = values.gather(1, end_index.unsqueeze(1)).squeeze(1)
        return rewards


def pairwise_loss(model, batch):
    """
    Args:
        batch (`dict`): `chosen_input_ids`, `chosen_attention_mask`, `rejected_input_ids` and
            `rejected_attention_mask`, each a `torch.LongTensor` of shape `(batch_size, sequence_length)`.

    Returns:
        `tuple`: the loss (`torch.FloatTensor` of shape `()`), the chosen and the rejected rewards.
    """
    chosen = model(batch["chosen_input_ids"], batch["chosen_attention_mask"])
    rejected = model(batch["rejected_input_ids"], batch["rejected_attention_mask"])
    return -nn.functional.logsigmoid(chosen - rejected).mean(), chosen, rejected


def collate(pairs, pad_token_id=0):
    out = {}
    for key, idx in (("chosen", 0), ("rejected", 1)):
        seqs = [p[idx] for p in pairs]
        width = max(len(s) for s in seqs)
        out[f"{key}_input_ids"] = torch.tensor([s + [pad_token_id] * (width - len(s)) for s in seqs])
        out[f"{key}_attention_mask"] = torch.tensor([[1] * len(s) + [0] * (width - len(s)) for s in seqs])
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    model = RewardModel(vocab_size=20, hidden_size=8)
    pairs = [([3, 4, 5, 9, 2], [3, 4, 5, 7]), ([6, 1, 8], [6, 1, 11, 12, 13])]
    batch = collate(pairs)
    with torch.no_grad():
        loss, chosen, rejected = pairwise_loss(model, batch)
    print("chosen rewards:", [round(r, 4) for r in chosen.tolist()], "rejected:", [round(r, 4) for r in rejected.tolist()])
    with torch.no_grad():
        for key, rewards in (("chosen", chosen), ("rejected", rejected)):
            for b, pair in enumerate(pairs):
                seq = torch.tensor([pair[0 if key == "chosen" else 1]])
                hidden, _ = model.encoder(model.embed_tokens(seq))
                expected = model.v_head(hidden[0, -1]).item()
                assert abs(rewards[b].item() - expected) < 1e-5
    print("ok")
