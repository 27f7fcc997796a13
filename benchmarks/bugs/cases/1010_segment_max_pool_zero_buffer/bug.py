import torch


def graph_ids_from_sizes(sizes):
    return torch.repeat_interleave(torch.arange(len(sizes)), torch.tensor(sizes))


def global_max_pool(x, batch, num_graphs):
    out = x.new_zeros(num_graphs, x.shape[1])
    index = batch.unsqueeze(1).expand_as(x)
    return out.scatter_reduce(0, index, x, reduce="amax")


def readout(node_feats, sizes):
    batch = graph_ids_from_sizes(sizes)
    return global_max_pool(node_feats, batch, len(sizes))


if __name__ == "__main__":
    torch.manual_seed(0)
    sizes = [3, 2, 4]
    node_feats = torch.randn(sum(sizes), 4) - 1.0
    print(readout(node_feats, sizes))
