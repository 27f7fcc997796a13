import torch


def first_true_indices(bools, dtype=torch.long):
    row_len = bools.size(-1)
    zero_or_index = row_len * (~bools).type(dtype) + torch.arange(row_len, dtype=dtype)
    return torch.min(zero_or_index, dim=-1).values


def per_token_rewards(responses, scores, kl, cfg):
    seq_len = first_true_indices(responses == cfg["pad_token_id"]) - 1
    seq_len_p1 = seq_len + 1
    actual_end = torch.where(seq_len_p1 < responses.size(1), seq_len_p1, seq_len)
    rewards = -cfg["kl_coef"] * kl
    rewards[torch.arange(rewards.size(0)), seq_len] += scores
    positions = torch.arange(responses.size(1)).expand_as(responses)
    mask = positions <= seq_len.unsqueeze(1)
    return rewards.masked_fill(~mask, 0.0), mask


def discounted_returns(rewards, mask, gamma):
    returns = torch.zeros_like(rewards)
    running = torch.zeros(rewards.size(0))
    for t in reversed(range(rewards.size(1))):
        running = rewards[:, t] + gamma * running * mask[:, t]
        returns[:, t] = running
    return returns * mask


if __name__ == "__main__":
    cfg = {"pad_token_id": 0, "kl_coef": 0.05, "gamma": 1.0}
    responses = torch.tensor([[11, 12, 2, 0, 0, 0],
                              [13, 14, 15, 16, 2, 0],
                              [17, 2, 0, 0, 0, 0]])
    scores = torch.tensor([1.0, -0.5, 2.0])
    kl = torch.full(responses.shape, 0.1)
    rewards, mask = per_token_rewards(responses, scores, kl.clone(), cfg)
    returns = discounted_returns(rewards, mask, cfg["gamma"])
    for b in range(3):
        toks = responses[b].tolist()
        eos = toks.index(0) - 1 if 0 in toks else len(toks) - 1
        ref = [0.0] * len(toks)
        for t in range(eos + 1):
            ref[t] = -0.05 * 0.1 + (scores[b].item() if t == eos else 0.0)
        running = 0.0
        for t in reversed(range(eos + 1)):
            running = ref[t] + running
            assert abs(returns[b, t].item() - running) < 1e-5
    print("ok")
