import torch


def collect_neighbors(node_h, edge_idx):
    """Gather the features of every node's neighbours.

    Args:
        node_h (torch.Tensor): node features of shape `(num_batch, num_nodes, num_features)`.
        edge_idx (torch.LongTensor): neighbour indices of shape `(num_batch, num_nodes, num_neighbors)`.

    Returns:
        torch.Tensor: neighbour features of shape `(num_batch, num_nodes, num_neighbors, num_features)`.
    """
    num_batch, num_nodes, num_neighbors = edge_idx.shape
    num_features = node_h.size(2)
    idx_flat = edge_idx.reshape(num_batch, num_nodes * num_neighbors, 1).expand(-1, -1, num_features)
    neighbor_h = torch.gather(node_h, 1, idx_flat)
    return neighbor_h.reshape(num_batch, num_nodes, num_neighbors, num_features)


def knn_graph(X, k):
    """k-nearest-neighbour graph on C-alpha coordinates `(num_batch, num_nodes, 3)` -> `(num_batch, num_nodes, k)`."""
    return torch.cdist(X, X).topk(k, dim=-1, largest=False).indices


def pair_energy(S, X, W, k=4):
    """Pairwise sequence energy on each structure.

    Args:
        S (torch.LongTensor): residue types of shape `(num_batch, num_nodes)`.
        X (torch.Tensor): coordinates of shape `(num_batch, num_nodes, 3)`.
        W (torch.Tensor): couplings of shape `(num_states, num_states)`.

    Returns:
        torch.Tensor: energies of shape `(num_batch,)`.
    """
    edge_idx = knn_graph(X, k)
    S_j = collect_neighbors(S.unsqueeze(-1), edge_idx).squeeze(-1)
    S_i = S.unsqueeze(-1).expand_as(S_j)
    return W[S_i, S_j].sum(dim=(1, 2))


def score_samples(X_init, S_init, W, samples=4, noise=0.5, seed=0):
    """Perturb an initial protein `samples` times and score its sequence on every perturbed backbone.

    Args:
        X_init (torch.Tensor): coordinates of shape `(1, num_nodes, 3)`.
        S_init (torch.LongTensor): sequence of shape `(1, num_nodes)`.
    """
    g = torch.Generator().manual_seed(seed)
    X_unc = X_init.expand(samples, -1, -1) + noise * torch.randn(samples, *X_init.shape[1:], generator=g)
    S_unc = S_init
    return X_unc, pair_energy(S_unc, X_unc, W)


if __name__ == "__main__":
    torch.manual_seed(0)
    X_init = torch.cumsum(torch.randn(1, 12, 3), dim=1)
    S_init = torch.randint(0, 20, (1, 12))
    W = torch.randn(20, 20)
    _, energies = score_samples(X_init, S_init, W)
    print("energies:", energies)
