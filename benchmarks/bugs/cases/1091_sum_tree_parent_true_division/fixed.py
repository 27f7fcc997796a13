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
            nodes = torch.unique(torch.div(nodes, 2, rounding_mode="floor"))
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
    td = torch.randn(4)
    replay.update_priorities(slots, td)
    print("total priority:", replay.tree.total().item())

    # reference: the full tree rebuilt with plain Python loops
    ref = [0.0] * 32
    for s, e in zip(slots.tolist(), td.tolist()):
        ref[16 + s] = (abs(e) + 1e-3) ** 0.6
    for i in range(15, 0, -1):
        ref[i] = ref[2 * i] + ref[2 * i + 1]
    for k in range(1, 32):
        assert abs(replay.tree.nodes[k].item() - ref[k]) < 1e-5, k
    print("ok")
