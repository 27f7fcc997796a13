import torch


class BatchedNextStateTable:
    def __init__(self, next_state_table):
        self.next_state_table = next_state_table
        self.batch_size, self.num_states, self.vocab_size = next_state_table.shape

    def forward_reduce(self, weights):
        flat = self.num_states * self.vocab_size
        index = self.next_state_table.reshape(self.batch_size, flat)
        src = weights.expand(self.batch_size, -1, -1).reshape(self.batch_size, flat)
        out = weights.new_zeros(self.batch_size, self.num_states)
        return out.scatter_reduce(-1, index, src, reduce="sum")


def arrival_mass(table, arc_weights, alpha):
    weighted = alpha.unsqueeze(-1) * arc_weights
    return table.forward_reduce(weighted)


def state_in_degrees(table, arc_weights):
    return table.forward_reduce(arc_weights)


if __name__ == "__main__":
    torch.manual_seed(0)
    table = BatchedNextStateTable(torch.randint(0, 6, (4, 6, 3)))
    arc_weights = torch.rand(1, 6, 3).softmax(-1)
    alpha = torch.rand(4, 6)
    got_mass = arrival_mass(table, arc_weights, alpha)
    got_deg = state_in_degrees(table, arc_weights)
    for b in range(4):
        mass = [0.0] * 6
        deg = [0.0] * 6
        for s in range(6):
            for v in range(3):
                nxt = int(table.next_state_table[b, s, v])
                mass[nxt] += alpha[b, s].item() * arc_weights[0, s, v].item()
                deg[nxt] += arc_weights[0, s, v].item()
        assert torch.allclose(got_mass[b], torch.tensor(mass), atol=1e-6)
        assert torch.allclose(got_deg[b], torch.tensor(deg), atol=1e-6)
    print("ok")
