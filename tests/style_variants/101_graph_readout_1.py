import torch


def graph_sum_pool(x, batch, num_graphs):
    # x: [N, F]
    index = batch.view(-1, 1).expand(-1, x.size(1))
    out = torch.zeros(num_graphs, x.size(1))
    out.scatter_add_(1, index, x)  # expect: GL003
    return out


if __name__ == "__main__":
    x = torch.randn(12, 8)
    batch = torch.tensor([0] * 4 + [1] * 5 + [2] * 3)
    try:
        graph_sum_pool(x, batch, 3)
    except RuntimeError:
        pass
    else:
        raise AssertionError("expected a RuntimeError")
