import torch
from jaxtyping import Float, Int
from torch import Tensor


def place_outcome_rewards(
    scores: Float[Tensor, "batch"],
    response_mask: Int[Tensor, "batch response_len"],
) -> Float[Tensor, "batch response_len"]:
    """Put each sequence-level score on the last valid response token."""
    valid_response_length = response_mask.sum(dim=-1)
    rm_scores = torch.zeros(response_mask.shape, dtype=scores.dtype)
    rm_scores[torch.arange(rm_scores.size(0)), valid_response_length - 1] = scores
    return rm_scores


def discounted_returns(
    token_rewards: Float[Tensor, "batch response_len"],
    response_mask: Int[Tensor, "batch response_len"],
    gamma: float = 1.0,
) -> Float[Tensor, "batch response_len"]:
    returns = torch.zeros_like(token_rewards)
    running = torch.zeros(token_rewards.size(0))
    for t in reversed(range(token_rewards.size(1))):
        running = token_rewards[:, t] + gamma * running
        returns[:, t] = running
    return returns * response_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    lengths = torch.tensor([5, 0, 3, 6])  # second rollout was fully padded
    response_mask = (torch.arange(6).unsqueeze(0) < lengths.unsqueeze(1)).long()
    scores = torch.tensor([1.0, -1.0, 0.5, 2.0])
    token_rewards = place_outcome_rewards(scores, response_mask)
    returns = discounted_returns(token_rewards, response_mask)
    outside = (token_rewards * (1 - response_mask)).abs().sum().item()
    print("reward mass outside the response mask:", outside)
    print("first-token returns:", returns[:, 0].tolist())
