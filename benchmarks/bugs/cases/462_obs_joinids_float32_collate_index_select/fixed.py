import torch

N_OBS = 2**24 + 64  # cells in the census slice


def collate_cells(batch):
    """Stack (counts, soma_joinid) pairs from the experiment iterator.

    Args:
        batch: list of (counts, soma_joinid); counts is a float tensor of shape (n_genes,).

    Returns:
        X: (batch, n_genes) expression counts.
        obs: (batch, 1) encoded obs columns; column 0 is the soma_joinid.
    """
    X = torch.stack([counts for counts, _ in batch])
    obs = torch.tensor([[joinid] for _, joinid in batch], dtype=torch.int64)
    return X, obs


def library_normalize(X, obs, size_factors):
    """Divide each cell's counts by its library size factor.

    Args:
        X: (batch, n_genes) counts.
        obs: (batch, 1) obs columns from collate_cells.
        size_factors: (n_obs,) one factor per soma_joinid.

    Returns:
        (batch, n_genes) normalized counts and the (batch,) factors used.
    """
    joinids = obs[:, 0].to(torch.int64)
    sf = size_factors.index_select(0, joinids)
    return X / sf.unsqueeze(1), sf


if __name__ == "__main__":
    torch.manual_seed(0)
    size_factors = torch.rand(N_OBS) + 0.5
    wanted = [17, 4096, 16_777_217, 16_777_219, 16_777_245]
    batch = [(torch.rand(8) * 10, j) for j in wanted]
    X, obs = collate_cells(batch)
    Xn, sf = library_normalize(X, obs, size_factors)
    for r, j in enumerate(wanted):
        assert obs[r, 0].item() == j
        assert sf[r].item() == size_factors[j].item()
        for g in range(8):
            assert abs(Xn[r, g].item() - X[r, g].item() / size_factors[j].item()) < 1e-6
    print("ok")
