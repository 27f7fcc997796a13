import torch


def graph_mean(x, batch, num_graphs):
    # x: [N, F] node features, batch: [N] graph id of each node -> [G, F]
    index = batch.unsqueeze(-1).expand(-1, x.size(1))                  # [N, F]
    out = x.new_zeros(num_graphs, x.size(1))
    return out.scatter_reduce(0, index, x, reduce="mean", include_self=False)


def center_per_graph(x, batch, num_graphs):
    means = graph_mean(x, batch, num_graphs)                            # [G, F]
    back = means.gather(0, batch.unsqueeze(-1).expand(-1, x.size(1)))   # [N, F]
    return x - back


def top_feature_values(x, k):
    # x: [N, F] -> the k largest values of every row and their columns
    cols = x.topk(k, dim=1).indices                                      # [N, k]
    return torch.take_along_dim(x, cols, dim=1), cols


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(9, 5)
    batch = torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2])
    centered = center_per_graph(x, batch, 3)
    for g in range(3):
        rows = [i for i in range(9) if int(batch[i]) == g]
        for f in range(5):
            mean = sum(float(x[i, f]) for i in rows) / len(rows)
            for i in rows:
                assert abs(float(centered[i, f]) - (float(x[i, f]) - mean)) < 1e-5
    vals, cols = top_feature_values(x, 2)
    for i in range(9):
        ordered = sorted(range(5), key=lambda c: -float(x[i, c]))[:2]
        assert [int(c) for c in cols[i]] == ordered
        assert all(float(vals[i, j]) == float(x[i, ordered[j]]) for j in range(2))
    print("ok")
