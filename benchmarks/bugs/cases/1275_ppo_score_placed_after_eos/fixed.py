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
    actual_end = sequence_lengths
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
    B, T = responses.shape
    for b in range(B):
        last = max(t for t in range(T) if responses[b, t] != CONFIG["pad_token_id"])
        for t in range(T):
            expected = 0.0
            if responses[b, t] != CONFIG["pad_token_id"]:
                expected = -CONFIG["kl_coef"] * (logprobs[b, t] - ref_logprobs[b, t]).item()
                if t == last:
                    expected += scores[b].item()
            assert abs(rewards[b, t].item() - expected) < 1e-5, (b, t)
    print("ok")
