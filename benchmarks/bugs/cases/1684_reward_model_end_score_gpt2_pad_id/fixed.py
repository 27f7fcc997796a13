import torch
import torch.nn as nn

GPT2_EOS_TOKEN_ID = 50256


class TinyCausalBackbone(nn.Module):
    def __init__(self, vocab_size, n_embd):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.proj = nn.Linear(n_embd, n_embd)

    def forward(self, input_ids, attention_mask):
        h = self.wte(input_ids) * attention_mask.unsqueeze(-1)
        steps = torch.arange(1, input_ids.shape[1] + 1).view(1, -1, 1)
        return torch.tanh(self.proj(h.cumsum(dim=1) / steps))


class GPT2RewardModel(nn.Module):
    """Wraps a GPT2-like backbone with a scalar reward head.

    Args:
        vocab_size (int): size of the backbone vocabulary.
        n_embd (int): hidden size of the backbone.
        pad_token_id (int, optional): id used to right-pad ``input_ids``.
    """

    def __init__(self, vocab_size, n_embd, pad_token_id=None):
        super().__init__()
        self.transformer = TinyCausalBackbone(vocab_size, n_embd)
        self.lm_head = nn.Linear(n_embd, 1, bias=False)
        self.pad_id = pad_token_id if pad_token_id is not None else GPT2_EOS_TOKEN_ID

    def forward(self, input_ids, attention_mask):
        """Computes per-token rewards and the reward at the last non-padding token.

        Args:
            input_ids (torch.LongTensor): token ids of shape ``[B, T]``, right padded.
            attention_mask (torch.LongTensor): mask of shape ``[B, T]``.

        Returns:
            rewards (torch.Tensor): shape ``[B, T]``.
            end_scores (torch.Tensor): shape ``[B]``.
        """
        hidden_states = self.transformer(input_ids, attention_mask)
        rewards = self.lm_head(hidden_states).squeeze(-1)
        return rewards, self._compute_end_scores(rewards, input_ids)

    def _compute_end_scores(self, rewards, input_ids):
        is_pad = input_ids == self.pad_id
        first_pad = torch.where(is_pad.any(dim=1), is_pad.int().argmax(dim=1), input_ids.shape[1])
        return rewards.gather(1, (first_pad - 1).unsqueeze(1)).squeeze(1)


def pad_batch(sequences, pad_token_id):
    width = max(len(s) for s in sequences)
    ids = torch.full((len(sequences), width), pad_token_id, dtype=torch.long)
    mask = torch.zeros_like(ids)
    for i, s in enumerate(sequences):
        ids[i, : len(s)] = torch.tensor(s)
        mask[i, : len(s)] = 1
    return ids, mask


if __name__ == "__main__":
    torch.manual_seed(0)
    tokenizer_config = {"vocab_size": 512, "pad_token_id": 0, "eos_token_id": 2}
    model = GPT2RewardModel(512, 16, pad_token_id=tokenizer_config["pad_token_id"])
    summaries = [[5, 17, 93, 2], [5, 41, 7, 300, 12, 2], [5, 9, 2]]
    input_ids, attention_mask = pad_batch(summaries, tokenizer_config["pad_token_id"])
    with torch.no_grad():
        rewards, end_scores = model(input_ids, attention_mask)
    for i, s in enumerate(summaries):
        assert torch.allclose(end_scores[i], rewards[i, len(s) - 1]), i
    print("ok")
