import torch


def collate_neighbors(adj_lists, pad=-1):
    # adj_lists: list of N python lists of neighbour ids -> (N, K) int64, K = longest list
    k = max(len(a) for a in adj_lists)
    out = torch.full((len(adj_lists), k), pad, dtype=torch.long)
    for i, a in enumerate(adj_lists):
        out[i, : len(a)] = torch.tensor(a, dtype=torch.long)
    return out


def mean_aggregate(x, nbr):
    # x:   (N, C) node features
    # nbr: (N, K) neighbour ids, -1 = padding
    valid = (nbr >= 0).float()                 # (N, K)
    gathered = x[nbr.clamp(min=0)] * valid.unsqueeze(-1)  # (N, K, C)
    summed = gathered.sum(dim=1)               # (N, C)
    deg = valid.sum(dim=1, keepdim=True).clamp(min=1)
    return summed / deg


if __name__ == "__main__":
    torch.manual_seed(0)
    adj = [[1, 2], [0], [0, 1, 3], [2]]
    x = torch.arange(12, dtype=torch.float32).view(4, 3)
    nbr = collate_neighbors(adj)
    h = mean_aggregate(x, nbr)
    for i, a in enumerate(adj):
        ref = sum((x[j] for j in a), torch.zeros(3)) / len(a)
        assert torch.allclose(h[i], ref)
    print("ok")
