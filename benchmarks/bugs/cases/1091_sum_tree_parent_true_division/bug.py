import torch


class SumTree:
    """Binary sum tree over replay priorities (root at node 1, leaves at [capacity, 2*capacity)).

    Args:
        capacity (int): number of leaves, a power of two.
    """

    def __init__(self, capacity):
        self.capacity = capacity
        self.nodes = torch.zeros(2 * capacity)

    def update(self, slots, priorities):
        """Write leaf priorities and refresh every ancestor.

        Args:
            slots (LongTensor): shape (K,), leaf slots in [0, capacity).
            priorities (Tensor): shape (K,), non-negative priorities.
        """
        nodes = slots + self.capacity
        self.nodes[nodes] = priorities
        while True:
            nodes = torch.unique(nodes / 2)
            self.nodes[nodes] = self.nodes[nodes * 2] + self.nodes[nodes * 2 + 1]
            if bool((nodes == 1).all()):
                break

    def total(self):
        """Returns:
            Tensor: 0-d, the sum of all priorities (the root).
        """
        return self.nodes[1]


class PrioritizedReplay:
    """Proportional prioritized replay (Schaul et al. 2016).

    Args:
        capacity (int): number of stored transitions.
        alpha (float): priority exponent.
    """

    def __init__(self, capacity, alpha=0.6):
        self.tree = SumTree(capacity)
        self.alpha = alpha

    def update_priorities(self, slots, td_errors):
        """Args:
            slots (LongTensor): shape (K,).
            td_errors (Tensor): shape (K,).
        """
        self.tree.update(slots, (td_errors.abs() + 1e-3) ** self.alpha)


if __name__ == "__main__":
    torch.manual_seed(0)
    replay = PrioritizedReplay(capacity=16)
    slots = torch.tensor([0, 3, 7, 12])
    replay.update_priorities(slots, torch.randn(4))
    print("total priority:", replay.tree.total().item())
