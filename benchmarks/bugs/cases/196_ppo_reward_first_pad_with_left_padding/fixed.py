import torch
import torch.nn as nn


def first_true_indices(bools, dtype=torch.long):
    # bools: [B, L] -> [B], L where a row has no True
    row_len = bools.size(-1)
    zero_or_index = row_len * (~bools).type(dtype) + torch.arange(row_len, dtype=dtype)
    return torch.min(zero_or_index, dim=-1).values


class ScalarRewardModel(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.proj = nn.Linear(hidden, hidden)
        self.score = nn.Linear(hidden, 1)

    def forward(self, input_ids, attention_mask):
        # input_ids, attention_mask: [B, L]; causal mean of the real tokens seen so far
        x = self.embed(input_ids) * attention_mask.unsqueeze(-1)  # [B, L, H]
        seen = attention_mask.cumsum(1).clamp(min=1).unsqueeze(-1)  # [B, L, 1]
        h = torch.tanh(self.proj(x.cumsum(1) / seen))  # [B, L, H]
        return self.score(h)  # [B, L, 1]


def get_reward(model, query_responses, pad_token_id, context_length):
    # query_responses: [B, L]; reward read at the last non-pad token of each row
    attention_mask = query_responses != pad_token_id  # [B, L]
    reward_logits = model(query_responses.masked_fill(~attention_mask, 0), attention_mask.float())  # [B, L, 1]
    sequence_lengths = query_responses.size(1) - 1 - first_true_indices(attention_mask.flip(1))  # [B] last real token, either padding side
    return reward_logits[torch.arange(reward_logits.size(0)), sequence_lengths].squeeze(-1)  # [B]


def pad_batch(seqs, pad_token_id, padding_side):
    # seqs: list of 1-D token tensors -> [B, L]
    width = max(len(s) for s in seqs)
    rows = []
    for s in seqs:
        pad = torch.full((width - len(s),), pad_token_id, dtype=s.dtype)
        rows.append(torch.cat([pad, s]) if padding_side == "left" else torch.cat([s, pad]))
    return torch.stack(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    pad_token_id = 9
    model = ScalarRewardModel(vocab=10, hidden=8).eval()
    queries = torch.randint(0, 9, (3, 4))  # [B, Lq]
    responses = [torch.randint(0, 9, (n,)) for n in (5, 3, 2)]
    tokenizer_cfg = {"padding_side": "left"}  # as in the PPO example script
    batch = torch.cat([queries, pad_batch(responses, pad_token_id, tokenizer_cfg["padding_side"])], dim=1)
    with torch.no_grad():
        scores = get_reward(model, batch, pad_token_id, context_length=queries.size(1))
        ref = []
        for q, r in zip(queries, responses):
            s = torch.cat([q, r])
            ref.append(model(s[None], torch.ones(1, len(s)))[0, -1, 0])
        ref = torch.stack(ref)
    assert torch.allclose(scores, ref, atol=1e-6)
    right = torch.cat([queries, pad_batch(responses, pad_token_id, "right")], dim=1)
    with torch.no_grad():
        assert torch.allclose(get_reward(model, right, pad_token_id, queries.size(1)), ref, atol=1e-6)
    print("ok")
