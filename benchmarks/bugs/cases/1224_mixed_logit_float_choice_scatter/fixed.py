import numpy as np
import torch
import torch.nn as nn


class ChoiceDataset(torch.utils.data.Dataset):
    def __init__(self, table):
        # table columns: 6 attributes x 3 alternatives, then the chosen alternative
        self.x = torch.tensor(table[:, :-1], dtype=torch.float32).view(-1, 3, 6)
        self.y = torch.tensor(table[:, -1], dtype=torch.long)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class MixedLogit(nn.Module):
    def __init__(self, num_attrs=6, num_alts=3):
        super().__init__()
        self.beta_mu = nn.Parameter(torch.zeros(num_attrs))
        self.beta_logsd = nn.Parameter(torch.full((num_attrs,), -1.0))
        self.num_alts = num_alts

    def elbo(self, x, y, num_draws=8):
        eps = torch.randn(num_draws, 1, x.shape[-1])
        beta = self.beta_mu + eps * self.beta_logsd.exp()
        utilities = torch.einsum("bjk,sbk->sbj", x, beta.expand(-1, x.shape[0], -1))
        log_probs = utilities.log_softmax(-1)
        onehot = torch.zeros(x.shape[0], self.num_alts).scatter(1, y.unsqueeze(1), 1.0)
        return (log_probs * onehot).sum(-1).mean()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    table = np.concatenate([rng.normal(size=(40, 18)), rng.integers(0, 3, (40, 1))], axis=1)
    loader = torch.utils.data.DataLoader(ChoiceDataset(table), batch_size=40)
    model = MixedLogit()
    x, y = next(iter(loader))
    torch.manual_seed(1)
    value = model.elbo(x, y)
    torch.manual_seed(1)
    eps = torch.randn(8, 1, 6)
    beta = (model.beta_mu + eps * model.beta_logsd.exp()).detach()
    total = 0.0
    for s in range(8):
        for b in range(40):
            u = [float((x[b, j] * beta[s, 0]).sum()) for j in range(3)]
            m = max(u)
            lse = m + float(np.log(sum(np.exp(v - m) for v in u)))
            total += u[int(y[b])] - lse
    assert abs(value.item() - total / (8 * 40)) < 1e-4, (value.item(), total / 320)
    print("ok")
