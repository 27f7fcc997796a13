import torch


class SumConv:
    def __init__(self, flow="source_to_target"):
        self.flow = flow
        i, j = (1, 0) if flow == "source_to_target" else (0, 1)
        self.i, self.j = i, j

    def propagate(self, edge_index, x, size):
        x_src, x_dst = x
        msg = x_src.index_select(0, edge_index[self.j]) if self.flow == "source_to_target" \
            else x_dst.index_select(0, edge_index[self.j])
        index = edge_index[self.i]
        dim_size = size[1]
        return self.aggregate(msg, index, dim_size)

    def aggregate(self, inputs, index, dim_size):
        out = inputs.new_zeros(dim_size, inputs.size(-1))
        expanded = index.view(-1, 1).expand_as(inputs)
        return out.scatter_add_(0, expanded, inputs)


def make_bipartite(cfg, generator):
    users = torch.randn(cfg["num_users"], cfg["channels"], generator=generator)
    items = torch.randn(cfg["num_items"], cfg["channels"], generator=generator)
    row = torch.randint(0, cfg["num_users"], (cfg["num_edges"],), generator=generator)
    col = torch.randint(0, cfg["num_items"], (cfg["num_edges"],), generator=generator)
    return users, items, torch.stack([row, col])


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    cfg = {"num_users": 7, "num_items": 4, "num_edges": 20, "channels": 3}
    users, items, edge_index = make_bipartite(cfg, gen)
    size = (cfg["num_users"], cfg["num_items"])
    conv = SumConv(flow="target_to_source")
    user_out = conv.propagate(edge_index, (users, items), size)
    ref = torch.zeros(cfg["num_users"], cfg["channels"])
    for e in range(edge_index.size(1)):
        ref[edge_index[0, e]] += items[edge_index[1, e]]
    print(torch.allclose(user_out, ref))
