import torch
import torch.nn as nn


class TGNMemory(nn.Module):
    """Per-node memory of a temporal graph network.

    Args:
        num_nodes (int): number of nodes in the graph.
        memory_dim (int): size of the memory vector of each node.
    """

    def __init__(self, num_nodes, memory_dim):
        super().__init__()
        self.register_buffer("memory", torch.zeros(num_nodes, memory_dim))
        self.register_buffer("last_update", torch.zeros(num_nodes, dtype=torch.long))
        self.msg = nn.Linear(2 * memory_dim + 1, memory_dim)

    def update_state(self, src, dst, t):
        """Record a batch of interaction events.

        Args:
            src (torch.LongTensor of shape `(num_events,)`): source node of every event.
            dst (torch.LongTensor of shape `(num_events,)`): destination node of every event.
            t (torch.LongTensor of shape `(num_events,)`): timestamp of every event (sorted).

        Returns:
            torch.LongTensor of shape `(num_nodes,)`: time of the most recent event of every node.
        """
        idx = torch.cat([src, dst], dim=0)
        t_all = torch.cat([t, t], dim=0)
        last_update = self.last_update.clone()
        last_update.scatter_reduce_(0, idx, t_all, reduce="amax", include_self=True)
        self.last_update = last_update
        return last_update

    def time_since_update(self, n_id, t_now):
        return t_now - self.last_update[n_id]


def main():
    torch.manual_seed(0)
    memory = TGNMemory(num_nodes=6, memory_dim=8)
    src = torch.tensor([0, 1, 2, 3, 1, 4])
    dst = torch.tensor([1, 2, 3, 0, 5, 1])
    t = torch.tensor([1, 2, 3, 5, 8, 9])
    last = memory.update_state(src, dst, t)
    ref = [0] * 6
    for s, d, ti in zip(src.tolist(), dst.tolist(), t.tolist()):
        ref[s] = max(ref[s], ti)
        ref[d] = max(ref[d], ti)
    assert last.tolist() == ref, (last.tolist(), ref)
    assert memory.time_since_update(torch.arange(6), 10).tolist() == [10 - r for r in ref]
    print("ok")


if __name__ == "__main__":
    main()
