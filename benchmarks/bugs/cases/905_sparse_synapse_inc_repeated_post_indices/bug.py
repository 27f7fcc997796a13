import torch


class SparseSynapses:
    def __init__(self, pre_idx, post_idx, weights, n_post):
        self.pre_idx = pre_idx
        self.post_idx = post_idx
        self.weights = weights
        self.n_post = n_post

    def step(self, pre_rates, post_input):
        contrib = self.weights * pre_rates[self.pre_idx]
        post_input[self.post_idx] += contrib
        return post_input


def simulate(syn, rates_over_time):
    history = []
    for rates in rates_over_time:
        post = torch.zeros(syn.n_post)
        history.append(syn.step(rates, post))
    return torch.stack(history)


if __name__ == "__main__":
    torch.manual_seed(0)
    pre_idx = torch.tensor([0, 1, 2, 3, 4, 5, 0, 2])
    post_idx = torch.tensor([0, 0, 1, 1, 2, 2, 2, 0])
    syn = SparseSynapses(pre_idx, post_idx, torch.rand(8), n_post=3)
    rates = torch.rand(4, 6)
    out = simulate(syn, rates)
    print("post input at t=0:", out[0])
    print("expected t=0     :", torch.zeros(3).index_add(0, post_idx, syn.weights * rates[0][pre_idx]))
