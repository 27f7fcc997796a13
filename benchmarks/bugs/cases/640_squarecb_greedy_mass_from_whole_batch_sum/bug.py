import torch


class SquareCBExploration:
    """SquareCB exploration over discrete actions.

    Args:
        gamma: exploration strength.
    """

    def __init__(self, gamma: float = 10.0):
        self.gamma = gamma

    def act_probs(self, values: torch.Tensor) -> torch.Tensor:
        """Action distribution per context.

        Args:
            values: (batch_size, action_count) estimated rewards.

        Returns:
            (batch_size, action_count) probabilities; each row sums to 1.
        """
        batch_size, action_count = values.shape
        max_val, max_indices = torch.max(values, dim=1)           # (batch_size,)
        empirical_gaps = max_val.unsqueeze(1) - values           # (batch_size, action_count)
        prob_policy = 1.0 / (action_count + self.gamma * empirical_gaps)
        for batch_ind in range(batch_size):
            prob_policy[batch_ind, max_indices[batch_ind]] = 0.0
            complementary_sum = torch.sum(prob_policy)
            prob_policy[batch_ind, max_indices[batch_ind]] = 1.0 - complementary_sum
        return prob_policy


if __name__ == "__main__":
    torch.manual_seed(0)
    values = torch.rand(3, 4)
    probs = SquareCBExploration(gamma=10.0).act_probs(values)
    print(probs)
    print("row sums:", probs.sum(dim=1))
