import numpy as np
import torch
import torch.nn as nn


class GRUObservationCell(nn.Module):
    """Discrete update of the hidden state of the series that have an observation at this time."""

    def __init__(self, input_size, hidden_size, prep_hidden):
        super().__init__()
        self.gru_d = nn.GRUCell(prep_hidden * input_size, hidden_size)
        self.w_prep = nn.Parameter(0.1 * torch.randn(input_size, 4, prep_hidden))
        self.bias_prep = nn.Parameter(0.1 + torch.zeros(input_size, prep_hidden))
        self.prep_hidden = prep_hidden
        self.input_size = input_size

    def forward(self, h, p, X_obs, M_obs, i_obs):
        # h: [n_series, hidden], p: [n_series, 2 * input_size], X_obs / M_obs: [n_obs, input_size]
        # i_obs: [n_obs] row of h / p observed at this time
        p_obs = p[i_obs]
        mean, logvar = torch.chunk(p_obs, 2, dim=1)
        sigma = torch.exp(0.5 * logvar)
        error = (X_obs - mean) / sigma
        log_lik_c = np.log(np.sqrt(2 * np.pi))
        losses = 0.5 * ((error.pow(2) + logvar + 2 * log_lik_c) * M_obs)

        gru_input = torch.stack([X_obs, mean, logvar, error], dim=2).unsqueeze(2)  # [n_obs, input, 1, 4]
        gru_input = torch.matmul(gru_input, self.w_prep).squeeze(2) + self.bias_prep  # [n_obs, input, prep]
        gru_input = (gru_input.relu() * M_obs.unsqueeze(-1)).reshape(-1, self.prep_hidden * self.input_size)

        temp = h.clone()
        temp[i_obs] = self.gru_d(gru_input, h[i_obs])
        return temp, losses


def collate_observations(table, time):
    # table: [n_rows, 1 + 2 * input_size] float array read from the csv: ID, then values, then masks
    rows = table[table[:, 0] >= 0]
    ids = rows[:, 0]  # series id of each observation, e.g. 0., 2., 3.
    obs_idx = torch.tensor(ids, dtype=torch.long)  # [n_obs]
    n_in = (table.shape[1] - 1) // 2
    X = torch.tensor(rows[:, 1 : 1 + n_in], dtype=torch.float32)
    M = torch.tensor(rows[:, 1 + n_in :], dtype=torch.float32)
    return {"time": time, "obs_idx": obs_idx, "X": X, "M": M}


if __name__ == "__main__":
    import math

    torch.manual_seed(0)
    n_series, input_size, hidden = 4, 2, 6
    cell = GRUObservationCell(input_size, hidden, prep_hidden=3)
    p_model = nn.Linear(hidden, 2 * input_size)
    table = np.array([
        [0.0, 0.3, -1.2, 1.0, 1.0],
        [2.0, 1.1, 0.0, 1.0, 0.0],
        [3.0, -0.4, 0.8, 1.0, 1.0],
    ])
    batch = collate_observations(table, time=0.5)
    h0 = torch.zeros(n_series, hidden)
    with torch.no_grad():
        p = p_model(h0)
        h, losses = cell(h0, p, batch["X"], batch["M"], batch["obs_idx"])
    for k, row in enumerate(table.tolist()):
        series = int(row[0])
        for j in range(input_size):
            mean = p[series, j].item()
            logvar = p[series, input_size + j].item()
            err = (row[1 + j] - mean) / math.exp(0.5 * logvar)
            expected = 0.5 * (err * err + logvar + 2 * math.log(math.sqrt(2 * math.pi))) * row[1 + input_size + j]
            assert abs(losses[k, j].item() - expected) < 1e-5
    observed = {int(r[0]) for r in table.tolist()}
    for s in range(n_series):
        assert (s in observed) == bool((h[s] != 0).any())
    print("ok")
