import torch

CONFIG = {"kl_coef": 0.05, "pad_token_id": 0, "stop_token_id": 2}


def first_true_indices(bools, dtype=torch.long):
    row_len = bools.size(-1)
    zero_or_index = row_len * (~bools).type(dtype) + torch.arange(row_len, device=bools.device)
    return torch.min(zero_or_index, dim=-1).values


def per_token_rewards(scores, logprobs, ref_logprobs, responses, cfg):
    kl = logprobs - ref_logprobs
    rewards = -cfg["kl_coef"] * kl
    sequence_lengths = first_true_indices(responses == cfg["pad_token_id"]) - 1
    sequence_lengths_p1 = sequence_lengths + 1
    actual_end = torch.where(sequence_lengths_p1 < rewards.size(1), sequence_lengths_p1, sequence_lengths)
    rewards[torch.arange(rewards.size(0)), actual_end] += scores
    padding_mask = responses == cfg["pad_token_id"]
    return rewards.masked_fill(padding_mask, 0.0)


def sample_batch(seed):
    g = torch.Generator().manual_seed(seed)
    responses = torch.tensor([[5, 7, 9, 2, 0, 0], [4, 2, 0, 0, 0, 0], [6, 8, 3, 3, 9, 2]])
    logprobs = -torch.rand(responses.shape, generator=g)
    ref_logprobs = logprobs - 0.1 * torch.rand(responses.shape, generator=g)
    scores = torch.tensor([1.5, -0.7, 0.9])
    return scores, logprobs, ref_logprobs, responses


if __name__ == "__main__":
    scores, logprobs, ref_logprobs, responses = sample_batch(0)
    rewards = per_token_rewards(scores, logprobs, ref_logprobs, responses, CONFIG)
    kl_part = (-CONFIG["kl_coef"] * (logprobs - ref_logprobs)).masked_fill(responses == 0, 0.0)
    print("score mass per response:", (rewards - kl_part).sum(1).tolist(), "expected:", scores.tolist())
